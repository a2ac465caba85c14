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
import { hostView, isOfficialHost } from "./host-view.js";
import { lookalikeFinding } from "./lookalike.js";
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
  return out.list();
}
