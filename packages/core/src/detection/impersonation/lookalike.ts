import type { Finding } from "../types.js";
import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { describeEdit } from "./describe.js";
import { finding } from "./findings.js";
import { labelParts, type HostView } from "./host-view.js";
import { fuzzyTokenMatch, type TokenMatch } from "./label-match.js";
import { PART_FACTOR, TLD_SWAP_STRENGTH } from "./policy.js";

type Technique = TokenMatch["technique"] | "tld-swap" | "subdomain";

interface Candidate {
  readonly entry: TokenEntry;
  readonly technique: Technique;
  readonly distance: number;
  readonly strength: number;
  /** What was compared with the token (the label, a part of it, joined labels). */
  readonly seen: string;
  readonly detail: string;
}

const better = (a: Candidate | null, b: Candidate | null): Candidate | null =>
  !a ? b : !b ? a : b.strength > a.strength ? b : a;

function fromMatch(m: TokenMatch | null, seen: string, index: ImpersonationIndex, factor = 1, extra = ""): Candidate | null {
  if (!m) return null;
  const entry = index.tokens[m.id] as TokenEntry;
  const detail = describeEdit(entry.token, seen, m.technique, m.distance) + extra;
  return { entry, technique: m.technique, distance: m.distance, strength: m.strength * factor, seen, detail };
}

/** Country-code suffixes ("de", "co.uk"): brands often own their name there, so a swap is weaker evidence. */
const isCountryCode = (suffix: string): boolean => {
  const tld = suffix.slice(suffix.lastIndexOf(".") + 1);
  return tld.length === 2;
};

/** "paypal.xyz": the exact distinctive token, on a suffix none of the brand's official domains use. */
function tldSwap(view: HostView, index: ImpersonationIndex): Candidate | null {
  const id = index.tokenIds.get(view.label);
  if (id === undefined || view.privateSuffix) return null;
  const entry = index.tokens[id] as TokenEntry;
  if (entry.short) return null;
  const strength = isCountryCode(view.suffix) ? TLD_SWAP_STRENGTH.countryCode : TLD_SWAP_STRENGTH.generic;
  return { entry, technique: "tld-swap", distance: 0, strength, seen: view.label, detail: `same name on .${view.suffix}` };
}

/** "pay.pal.com", "www.pay-pa1.com": a token split across labels by an inserted dot. */
function subdomainSplit(view: HostView, index: ImpersonationIndex): Candidate | null {
  let best: Candidate | null = null;
  let joined = view.label;
  for (let k = view.registrableIndex - 1; k >= 0 && k >= view.registrableIndex - 2; k--) {
    const sub = view.labels[k] as string;
    if (sub === "www") break;
    joined = sub + joined;
    const id = index.tokenIds.get(joined);
    if (id !== undefined && !(index.tokens[id] as TokenEntry).short) {
      const entry = index.tokens[id] as TokenEntry;
      best = better(best, { entry, technique: "subdomain", distance: 0, strength: 0.9, seen: view.labels.slice(k, view.registrableIndex + 1).join("."), detail: "a dot inserted into the name" });
    } else {
      // Permutations and skeletons only: a split name with a further typo is too far-fetched to pay an edit-distance search for.
      best = better(best, fromMatch(fuzzyTokenMatch(joined.replaceAll("-", ""), index, false), joined, index, 0.8, ", split by a dot"));
    }
  }
  return best;
}

/**
 * Typosquatting of the registrable label: same name on another TLD, dnstwist permutations,
 * skeleton copies and bounded edit distance, on the label, the label without hyphens, each
 * hyphen-separated part ("metamsak-wallet"), and labels joined across a dot.
 */
export function lookalikeFinding(view: HostView, index: ImpersonationIndex): Finding | null {
  if (view.label.startsWith("xn--")) return null; // the homograph check reads the Unicode form
  let best = tldSwap(view, index);
  const label = view.label;
  const hyphenated = label.includes("-");
  // A hyphenated label gets its edit distance without the hyphens, just below.
  best = better(best, fromMatch(fuzzyTokenMatch(label, index, !hyphenated), label, index));
  if (hyphenated) {
    const bare = label.replaceAll("-", "");
    const id = index.tokenIds.get(bare);
    if (id !== undefined && !(index.tokens[id] as TokenEntry).short) {
      const entry = index.tokens[id] as TokenEntry;
      best = better(best, { entry, technique: "hyphenation", distance: 1, strength: 0.9, seen: label, detail: "hyphens added" });
    } else {
      best = better(best, fromMatch(fuzzyTokenMatch(bare, index), bare, index, 0.95, ", hyphens added"));
    }
    for (const part of labelParts(label)) {
      if (part.length >= 5 && part !== label) best = better(best, fromMatch(fuzzyTokenMatch(part, index), part, index, PART_FACTOR));
    }
  }
  best = better(best, subdomainSplit(view, index));
  if (!best) return null;
  const { entry } = best;
  const message = best.technique === "tld-swap"
    ? `Uses the name ${entry.brand.name} on .${view.suffix}; the real site is ${entry.target}`
    : `Looks like ${entry.target} (${best.detail})`;
  return finding(
    "domain.lookalike_brand",
    "impersonation",
    message,
    { target: entry.target, brand: entry.brand.id, technique: best.technique, distance: best.distance, token: entry.token, seen: best.seen },
    index.source,
    best.strength,
  );
}
