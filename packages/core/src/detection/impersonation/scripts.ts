/**
 * The writing systems of a label, for the evidence of a homograph ("Cyrillic + Latin").
 * Digits, hyphens and combining marks belong to every script (Common/Inherited) and are not
 * named. The list covers the scripts that have confusables of Latin letters; anything else is
 * reported as "Other" rather than guessed.
 */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Georgian", /\p{Script=Georgian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["Coptic", /\p{Script=Coptic}/u],
  ["Lisu", /\p{Script=Lisu}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Han", /\p{Script=Han}/u],
  ["Hiragana", /\p{Script=Hiragana}/u],
  ["Katakana", /\p{Script=Katakana}/u],
  ["Hangul", /\p{Script=Hangul}/u],
];
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** Scripts in order of first appearance, e.g. ["Cyrillic", "Latin"] for "аpple". */
export function scriptsOf(s: string): string[] {
  const out: string[] = [];
  for (const ch of s) {
    if (NEUTRAL.test(ch)) continue;
    const name = SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? "Other";
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
