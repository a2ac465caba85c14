/**
 * Plain-language account of how a label differs from the brand token it imitates, for the
 * finding message ("one character replaced: l → 1"). Works on the differing middle of the two
 * strings once their common start and end are cut off, which is exact for every one-step
 * permutation and a fair summary for two edits.
 */
export type EditTechnique =
  | "homoglyph" | "transposition" | "omission" | "repetition" | "vowel-swap" | "replacement"
  | "insertion" | "addition" | "hyphenation" | "bitsquatting" | "edit-distance";

function differingMiddle(token: string, seen: string): { from: string; to: string } {
  let p = 0;
  while (p < token.length && p < seen.length && token[p] === seen[p]) p++;
  let s = 0;
  while (s < token.length - p && s < seen.length - p && token[token.length - 1 - s] === seen[seen.length - 1 - s]) s++;
  return { from: token.slice(p, token.length - s), to: seen.slice(p, seen.length - s) };
}

const q = (s: string): string => `“${s}”`;

export function describeEdit(token: string, seen: string, technique: EditTechnique, distance: number): string {
  const { from, to } = differingMiddle(token, seen);
  switch (technique) {
    case "homoglyph":
      return `look-alike characters: ${from} → ${to}`;
    case "transposition":
      return `two letters swapped: ${from} → ${to}`;
    case "omission":
      return `one character left out: ${q(from)}`;
    case "repetition":
      return `a character doubled: ${q(to.slice(0, 1))}`;
    case "insertion":
    case "addition":
      return `one character added: ${q(to)}`;
    case "hyphenation":
      return "a hyphen added";
    case "vowel-swap":
    case "replacement":
      return `one character replaced: ${from} → ${to}`;
    case "bitsquatting":
      return `one character replaced: ${from} → ${to} (a single flipped bit)`;
    case "edit-distance":
      if (distance === 1) {
        if (from.length === 0) return `one character added: ${q(to)}`;
        if (to.length === 0) return `one character left out: ${q(from)}`;
        return from.length === 2 && to.length === 2 && from[0] === to[1] && from[1] === to[0]
          ? `two letters swapped: ${from} → ${to}`
          : `one character replaced: ${from} → ${to}`;
      }
      return `${distance === 2 ? "two" : distance} characters different: ${q(token)} → ${q(seen)}`;
  }
}
