/**
 * Names built like a brand's name from other ordinary words. "MetaMask" is "meta" + "mask" and
 * "OpenSea" is "open" + "sea"; "metacask", "metamast", "openspa" and "opensee" keep one word and
 * change the other into another ordinary word, one letter away. That is how people name their
 * own projects (each of these is a real site), while a typosquat usually breaks a word
 * ("metamsak", "opnsea"). Such a name is still one edit from the brand, so it stays a
 * look-alike, only weaker (see `WORD_SWAP_FACTOR`).
 *
 * Inflections of the brand's word ("metamasks", "localbitcoin", "walletsconnect") are not
 * another word: they keep the brand's name and stay full look-alikes.
 */

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** Both words, the kept one and the changed one, have at least this many letters ("meta", "sea"). */
const MIN_WORD = 3;

/** Endings that inflect a word rather than make another one ("masks", "masked", "masker", "masking"). */
export const INFLECTION_ENDINGS: readonly string[] = ["s", "es", "d", "ed", "er", "ing"];

function isInflection(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (!long.startsWith(short)) return false;
  const ending = long.slice(short.length);
  // "bases", "based", "baser" from "base" ("-e" + "s"/"d"/"r") as well as "masks", "masked", "masker".
  return INFLECTION_ENDINGS.includes(ending) || (ending === "r" && short.endsWith("e"));
}

/**
 * A slip of the finger on the brand's own name: one letter doubled ("paysstack") or two
 * neighbours swapped. Splitting the name at another place can make it look like a word swap
 * ("pays" + "stack"), but it is the typo the look-alike check exists for.
 */
function isSlipOf(name: string, token: string): boolean {
  if (name.length === token.length + 1) {
    for (let i = 0; i + 1 < name.length; i++) if (name[i] === name[i + 1] && name.slice(0, i) + name.slice(i + 1) === token) return true;
    return false;
  }
  if (name.length !== token.length) return false;
  let i = 0;
  while (i < name.length && name[i] === token[i]) i++;
  return i + 1 < name.length && name[i] === token[i + 1] && name[i + 1] === token[i] && name.slice(i + 2) === token.slice(i + 2);
}

/** Every string one edit (deletion, insertion, substitution, adjacent transposition) from `w`. */
function oneEditFrom(w: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= w.length; i++) {
    if (i < w.length) out.add(w.slice(0, i) + w.slice(i + 1));
    if (i < w.length - 1) out.add(w.slice(0, i) + (w[i + 1] as string) + (w[i] as string) + w.slice(i + 2));
    for (const c of LETTERS) {
      out.add(w.slice(0, i) + c + w.slice(i));
      if (i < w.length) out.add(w.slice(0, i) + c + w.slice(i + 1));
    }
  }
  out.delete(w);
  return out;
}

/** Other ordinary words one edit from `w`, not its inflections. */
function neighbourWords(w: string, words: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const v of oneEditFrom(w)) if (v.length >= MIN_WORD && words.has(v) && !isInflection(v, w)) out.push(v);
  return out;
}

/**
 * All names that keep one word of a two-word token and change the other into another ordinary
 * word one edit away ("metamask" → "metacask", "metamast", "metamusk" … and "metemask" when
 * "mete" is a word). Precomputed once per brand list.
 */
export function wordSwapNames(tokens: Iterable<string>, words: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const token of tokens) {
    for (let cut = MIN_WORD; cut <= token.length - MIN_WORD; cut++) {
      const head = token.slice(0, cut);
      const tail = token.slice(cut);
      if (!words.has(head) || !words.has(tail)) continue;
      for (const t of neighbourWords(tail, words)) if (!isSlipOf(head + t, token)) out.add(head + t);
      for (const h of neighbourWords(head, words)) if (!isSlipOf(h + tail, token)) out.add(h + tail);
    }
  }
  for (const token of tokens) out.delete(token);
  return out;
}
