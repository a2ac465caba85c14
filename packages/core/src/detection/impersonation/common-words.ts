/**
 * Ordinary words (and a few common names) that happen to be one typo, one flipped bit or
 * one or two edits away from a brand token: "finance" is a bit-flip of "binance", "interest"
 * an omission of "pinterest", "cloud" of "icloud", "delivery" two edits from "deliveroo".
 * A label that is one of these is a word, not a typosquat, so the fuzzy checks skip it
 * (exact brand tokens and keywords are unaffected).
 *
 * Made by running every lower-case word of 4+ letters of the Debian `wamerican` and
 * `wbritish` word lists, and their capitalised names, through the fuzzy matcher with an
 * empty list, then reviewing the hits: inflections of a brand name itself ("amazons",
 * "googles", "yahoos") were left out on purpose, they stay suspicious. Re-run the same way
 * when brand tokens change; a word missing here only costs a false positive.
 */
export const COMMON_WORDS: readonly string[] = [
  "altai", "amelia", "annex", "anthropoid", "anthropoids", "applied", "argosy", "argus", "atwitter",
  "barclay", "battened", "battlement", "bell", "bitnet", "bitterest", "boost", "bung", "capitalise",
  "capitalize", "capitoline", "chaining", "chantilly", "cloud", "debark", "debunk", "deeper", "deli",
  "delia", "deliver", "delivered", "deliverer", "delivers", "delivery", "digit", "discordant", "email",
  "esteban", "express", "fiber", "finance", "geezer", "goggle", "grad", "haystack", "hinted", "horton",
  "inmost", "innkeeper", "interact", "interest", "interests", "internet", "julia", "kepler", "kodak",
  "linted", "lloyd", "medicate", "messenger", "mike", "minted", "mobile", "monogram", "morton", "motion",
  "naves", "never", "notions", "papal", "password", "passwords", "patron", "peacock", "peacocks",
  "percolator", "phoneme", "plantation", "postal", "poster", "quota", "rabbi", "radium", "revenue",
  "revenues", "revolt", "rigid", "robby", "schwa", "schwas", "sheen", "shrill", "signpost", "sincerest",
  "skill", "tabby", "tandem", "tiber", "tinted", "titter", "trade", "transfer", "tremor", "trevor", "truest",
  "truism", "trust", "tumble", "tumbler", "tunes", "twister", "venom", "vented", "vibes", "winteriest",
  "wordiness", "zooms",
];
