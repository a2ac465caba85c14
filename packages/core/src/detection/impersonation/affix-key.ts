/**
 * The first or last four characters of a string as one small integer, read straight from the
 * character codes. The prefix/suffix tables (brand tokens, lure words) are keyed by it, so a
 * host part is looked up there without cutting a new string for every check.
 */
export const AFFIX_KEY_LENGTH = 4;

/** [a-z] → 1–26, [0-9] → 27–36, "-" → 37, anything else 0: base 38, four digits, always a small integer. */
function digit(c: number): number {
  if (c >= 0x61 && c <= 0x7a) return c - 0x60;
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 27;
  return c === 0x2d ? 37 : 0;
}

function keyAt(s: string, start: number): number {
  let k = 0;
  for (let i = start; i < start + AFFIX_KEY_LENGTH; i++) k = k * 38 + digit(s.charCodeAt(i));
  return k;
}

/** The key of four characters given by their codes: `headKey` of a string not yet built. */
export const keyOfCodes = (a: number, b: number, c: number, d: number): number => ((digit(a) * 38 + digit(b)) * 38 + digit(c)) * 38 + digit(d);

/** Key of the first four characters (the string must have at least four). */
export const headKey = (s: string): number => keyAt(s, 0);
/** Key of the last four characters (the string must have at least four). */
export const tailKey = (s: string): number => keyAt(s, s.length - AFFIX_KEY_LENGTH);
