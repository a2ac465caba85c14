// punycode.js ships no type declarations; we only use its decoder.
declare module "punycode/punycode.es6.js" {
  export function toUnicode(input: string): string;
  export function toASCII(input: string): string;
}
