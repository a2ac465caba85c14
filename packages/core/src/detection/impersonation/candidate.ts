import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { describeEdit } from "./describe.js";
import type { TokenMatch } from "./label-match.js";

/**
 * One way a registrable name may imitate a brand token. The lookalike check collects them
 * from every technique and reports the strongest.
 */
export type Technique = TokenMatch["technique"] | "tld-swap" | "subdomain" | "consonants";

export interface Candidate {
  readonly entry: TokenEntry;
  readonly technique: Technique;
  readonly distance: number;
  readonly strength: number;
  /** What was compared with the token (the label, a part of it, joined labels). */
  readonly seen: string;
  readonly detail: string;
}

/** The stronger of two candidates (the first on a tie). */
export const better = (a: Candidate | null, b: Candidate | null): Candidate | null =>
  !a ? b : !b ? a : b.strength > a.strength ? b : a;

/** A candidate from a fuzzy match of `seen`, with its strength scaled by `factor` and `extra` appended to the explanation. */
export function fromMatch(m: TokenMatch | null, seen: string, index: ImpersonationIndex, factor = 1, extra = ""): Candidate | null {
  if (!m) return null;
  const entry = index.tokens[m.id] as TokenEntry;
  const detail = describeEdit(entry.token, seen, m.technique, m.distance) + extra;
  return { entry, technique: m.technique, distance: m.distance, strength: m.strength * factor, seen, detail };
}

