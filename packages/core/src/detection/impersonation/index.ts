/**
 * Brand impersonation detectors (DESIGN.md §5): pure functions over a precomputed index.
 * Each technique lives in its own file; this module only decides which apply to an entity.
 */
import type { Entity } from "../../entities/types.js";
import type { Finding } from "../types.js";
import { brandPartFindings } from "./brand-parts.js";
import type { ImpersonationIndex } from "./build-index.js";
import { BestFindings } from "./findings.js";
import { homographFinding } from "./homograph.js";
import { hostView, isOfficialHost, type HostView } from "./host-view.js";
import { lookalikeFinding } from "./lookalike.js";
import { asciiFold } from "./skeleton.js";
import { embeddingFinding } from "./target-embedding.js";

export { buildImpersonationIndex } from "./build-index.js";
export type { ImpersonationIndex, ImpersonationOptions } from "./build-index.js";
export { detectHandleImpersonation } from "./handles.js";

/**
 * Findings of brand impersonation for a domain, URL (its host) or e-mail address (its
 * domain): homographs, typosquats, target embedding, combosquatting and brand names in
 * unofficial names. Nothing for hosts on any brand's official domains, and at most one finding
 * per code, the strongest.
 */
export function detectImpersonation(entity: Entity, index: ImpersonationIndex): Finding[] {
  if (entity.type !== "domain" && entity.type !== "url" && entity.type !== "email") return [];
  const view = hostView(entity);
  if (!view || isOfficialHost(view, index.officialDomains, index.userContentDomains)) return [];
  const userContent = index.userContentDomains.has(view.registrable);
  const out = new BestFindings();
  out.add(homographFinding(view, index));
  out.add(embeddingFinding(view, index));
  if (!userContent) out.add(lookalikeFinding(view, index));
  for (const f of brandPartFindings(view, index, userContent)) out.add(f);
  // An internationalised name read as ASCII ("logín-blockchaín" → "login-blockchain") is checked
  // for brand names and lure words like any other: the accents only disguise them.
  const folded = view.unicodeLabels === view.labels ? null : foldedView(view, index);
  if (folded) {
    const shown = view.unicodeLabels.slice(0, view.registrableIndex + 1).join(".");
    for (const f of brandPartFindings(folded, index, userContent)) {
      out.add({ ...f, message: `${f.message} (written “${shown}”, with look-alike letters)`, evidence: { ...f.evidence, shown } });
    }
  }
  return out.list();
}

const HOST_LABEL = /^[a-z0-9-]+$/;

/** The host with every internationalised label read as ASCII; null when some label has no ASCII reading or nothing changes. */
function foldedView(view: HostView, index: ImpersonationIndex): HostView | null {
  const labels: string[] = [];
  for (let i = 0; i < view.labels.length; i++) {
    const shown = view.unicodeLabels[i] as string;
    if (shown === view.labels[i] || i > view.registrableIndex) {
      labels.push(view.labels[i] as string);
      continue;
    }
    const ascii = asciiFold(shown, index.confusables);
    // Look-alikes of punctuation ("꓾" for ":") do not make a host name.
    if (ascii === null || !HOST_LABEL.test(ascii)) return null;
    labels.push(ascii);
  }
  const label = labels[view.registrableIndex] as string;
  return { ...view, host: labels.join("."), labels, unicodeLabels: labels, label, registrable: `${label}.${view.suffix}` };
}
