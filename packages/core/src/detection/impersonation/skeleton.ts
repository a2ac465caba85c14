/**
 * UTS #39 §4 skeleton: NFD, map every code point through the confusables table, NFD again.
 * Two strings with the same skeleton are confusable however they were written, so the
 * skeleton of a label is compared with the skeletons of brand tokens: Cyrillic "аpple" and
 * Latin "apple" both become "apple".
 */
export function skeleton(s: string, confusables: ReadonlyMap<number, string>): string {
  let out = "";
  for (const ch of s.normalize("NFD")) out += confusables.get(ch.codePointAt(0) as number) ?? ch;
  return out.normalize("NFD");
}

const COMBINING_MARKS = /\p{M}/gu;

const DOTLESS = /i/g;

/**
 * The key labels and tokens are compared by: the skeleton, lower-cased (prototypes are
 * sometimes capitals, e.g. "0" → "O") and without combining marks, with "i" read as "l".
 * Two steps go beyond UTS #39 on purpose. Dropping marks: "paypál" is not confusable with
 * "paypal" in the standard's sense, but in an address bar nobody sees the accent, and no brand
 * in our data has one. Folding "i" into "l": the table sends "1", "I" and "|" to "l" but
 * Cyrillic palochka "ӏ" to "i" (it has changed between Unicode versions), and all of them look
 * alike in the sans-serif fonts of address bars.
 */
export function matchKey(s: string, confusables: ReadonlyMap<number, string>): string {
  return skeleton(s, confusables).toLowerCase().replace(COMBINING_MARKS, "").replace(DOTLESS, "l");
}

/**
 * Letters that UTS #39 sends to a small capital or another non-ASCII prototype, but that readers
 * take for a lower-case Latin letter in a name: Cyrillic "т" (→ "ᴛ"), "н" (→ "ʜ"), "к" (→ "ĸ"),
 * Greek "ε" and Cyrillic "є" (→ "ꞓ"), and letters the table leaves alone ("ɾ", "ŋ", "ꝇ").
 * "myeтherwallet" reads as "myetherwallet".
 */
const READ_AS_LATIN: ReadonlyMap<string, string> = new Map([
  ["ᴀ", "a"], ["ʙ", "b"], ["ᴄ", "c"], ["ᴅ", "d"], ["ᴇ", "e"], ["ꜰ", "f"], ["ɢ", "g"], ["ʜ", "h"], ["ɪ", "i"],
  ["ᴊ", "j"], ["ᴋ", "k"], ["ʟ", "l"], ["ᴍ", "m"], ["ɴ", "n"], ["ᴏ", "o"], ["ᴘ", "p"], ["ʀ", "r"], ["ꜱ", "s"],
  ["ᴛ", "t"], ["ᴜ", "u"], ["ᴠ", "v"], ["ᴡ", "w"], ["ʏ", "y"], ["ᴢ", "z"], ["ĸ", "k"], ["ꞓ", "e"], ["ɛ", "e"],
  ["ʍ", "m"], ["ɾ", "r"], ["ƅ", "b"], ["ȴ", "l"], ["ꝇ", "l"], ["ŋ", "n"], ["þ", "p"],
]);

/**
 * A non-ASCII label read as plain ASCII: each non-ASCII character replaced by its look-alike
 * (accents dropped, then the confusables prototype), ASCII left as written. Used to run the
 * ordinary typo checks on a homograph that is not an exact copy ("pаypa1" with a Cyrillic "а").
 * Null when some character has no ASCII reading.
 */
export function asciiFold(s: string, confusables: ReadonlyMap<number, string>): string | null {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) {
      out += ch;
      continue;
    }
    let mapped = "";
    for (const part of ch.normalize("NFD").replace(COMBINING_MARKS, "")) {
      mapped += confusables.get(part.codePointAt(0) as number) ?? part;
    }
    mapped = mapped.normalize("NFD").replace(COMBINING_MARKS, "").toLowerCase();
    let ascii = "";
    for (const c of mapped) {
      const read = c.charCodeAt(0) < 0x80 ? c : READ_AS_LATIN.get(c);
      if (read === undefined) return null;
      ascii += read;
    }
    out += ascii;
  }
  return out;
}

/** `matchKey` of every ASCII code point, so the common all-ASCII label needs no normalisation. */
export function asciiKeyTable(confusables: ReadonlyMap<number, string>): string[] {
  const out: string[] = [];
  for (let cp = 0; cp < 0x80; cp++) out.push(matchKey(String.fromCharCode(cp), confusables));
  return out;
}

/** `matchKey` of an all-ASCII string through the table. */
export function asciiMatchKey(s: string, table: readonly string[]): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += table[s.charCodeAt(i)] ?? s[i];
  return out;
}
