import type { Finding } from "../types.js";
import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { finding } from "./findings.js";
import type { HostView } from "./host-view.js";
import { fuzzyTokenMatch } from "./label-match.js";
import { scriptsOf } from "./scripts.js";
import { asciiFold, matchKey } from "./skeleton.js";

/** A homograph in a sub-domain still fools the eye, but the registrable name is what the reader checks. */
const SUBDOMAIN_FACTOR = 0.8;
/** Look-alike letters plus a typo is a weaker copy than look-alike letters alone. */
const FUZZY_FACTOR = 0.85;

/** The token a non-ASCII label copies: by skeleton, or read as ASCII and then exactly or by a typo. */
function copyOf(shown: string, index: ImpersonationIndex): { id: number; distance: number } | null {
  const id = index.skeletons.get(matchKey(shown, index.confusables));
  if (id !== undefined) return { id, distance: 0 };
  const folded = asciiFold(shown, index.confusables);
  if (folded === null) return null;
  const exact = index.tokenIds.get(folded);
  if (exact !== undefined) return { id: exact, distance: 0 };
  const m = fuzzyTokenMatch(folded.replaceAll("-", ""), index);
  return m ? { id: m.id, distance: m.distance } : null;
}

/**
 * IDN homographs: a label written (wholly or partly) in other scripts whose UTS #39 skeleton is
 * a brand token ("аpple" with a Cyrillic "а"), or which, read as ASCII, is a typo of one.
 * Only labels that really contain non-ASCII characters are looked at; ASCII look-alikes
 * ("paypa1") are the lookalike check's business.
 */
export function homographFinding(view: HostView, index: ImpersonationIndex): Finding | null {
  let best: Finding | null = null;
  for (let i = 0; i <= view.registrableIndex; i++) {
    const shown = view.unicodeLabels[i] as string;
    if (shown === view.labels[i]) continue;
    const match = copyOf(shown, index);
    if (!match) continue;
    const { id, distance } = match;
    const entry = index.tokens[id] as TokenEntry;
    const scripts = scriptsOf(shown);
    // A Cyrillic word under .рф is Russian, not a disguise: whole-script names are judged against their TLD (as browsers do).
    if (scripts.length === 1 && scripts[0] !== "Latin" && scriptsOf(view.unicodeLabels.slice(view.registrableIndex + 1).join("")).includes(scripts[0] as string)) continue;
    const where = i === view.registrableIndex ? 1 : SUBDOMAIN_FACTOR;
    const strength = (distance === 0 ? 1 : FUZZY_FACTOR) * where;
    if (best && (best.strength ?? 0) >= strength) continue;
    const written = scripts.length > 1
      ? `mixes ${scripts.join(" and ")} letters`
      : scripts[0] === "Latin" ? "uses accented or look-alike letters" : `is written in ${scripts[0] ?? "other"} letters`;
    best = finding(
      "domain.homograph",
      "impersonation",
      `“${shown}” ${written} to look like ${entry.target}`,
      { target: entry.target, brand: entry.brand.id, technique: "homograph", scripts, shown, distance },
      index.source,
      strength,
    );
  }
  return best;
}
