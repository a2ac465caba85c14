import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { better, fromMatch, type Candidate } from "./candidate.js";
import type { HostView } from "./host-view.js";
import { fuzzyTokenMatch, tokenIdOf } from "./label-match.js";

/** "pay.pal.com", "www.pay-pa1.com": a token split across labels by an inserted dot. */
export function subdomainSplit(view: HostView, index: ImpersonationIndex): Candidate | null {
  let best: Candidate | null = null;
  let joined = view.label;
  for (let k = view.registrableIndex - 1; k >= 0 && k >= view.registrableIndex - 2; k--) {
    const sub = view.labels[k] as string;
    if (sub === "www") break;
    joined = sub + joined;
    const id = tokenIdOf(joined, index);
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

