/**
 * Ordinary words (and a few common names) that happen to be one typo, one look-alike letter or
 * one edit away from a brand token: "finance" is a bit-flip of "binance", "interest" an
 * omission of "pinterest", "cloud" of "icloud", "motion" a look-alike of "notion". A label that
 * is one of these is a word, not a typosquat, so the fuzzy checks skip it (exact brand tokens
 * and keywords are unaffected).
 *
 * Made by running every lower-case word of 4+ letters of the Debian `wamerican` and
 * `wbritish` word lists, and their capitalised names, through the fuzzy matcher with an empty
 * list, then reviewing the hits: inflections of a brand name itself ("amazons", "googles",
 * "yahoos", "twitters") were left out on purpose, they stay suspicious; "telecom(s)" (not in
 * those lists, one bit from "telekom") was added by hand after a run over the free-mail
 * provider list. Re-run the same way when brand tokens or the matching policy change; a word
 * missing here only costs a false positive.
 */
export const COMMON_WORDS: readonly string[] = [
  "annex", "applied", "argus", "atwitter", "barclay", "bell", "bitnet", "bung", "cloud", "debark", "debunk",
  "deeper", "deli", "finance", "geezer", "goggle", "grad", "haystack", "hinted", "horton", "inmost",
  "interact", "interest", "linted", "lloyd", "medicate", "messenger", "mike", "minted", "mobile", "morton",
  "motion", "never", "notions", "papal", "password", "patron", "phoneme", "plantation", "postal", "poster",
  "radium", "revolt", "robby", "schwa", "schwas", "sheen", "shrill", "signpost", "skill", "tandem",
  "telecom", "telecoms", "tinted", "titter", "trade", "tremor", "trevor", "truest", "truism", "trust",
  "tumble", "tumbler", "tunes", "twister", "venom", "vented", "zooms",
];
