// Popular sites (decision 0051): the registrable domains of the web's most-linked sites, from the
// pinned top-sites list in @svc/intel. Such a site's own name is not evidence against it: the
// finding is informational and the ruleset caps the score (a block-list entry still counts). A
// user's site on a hosting platform or a user-content domain is not the platform's, and is not
// vouched for.
import type { Entity } from "../../entities/types.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";
import { freeHostOf } from "./lexical.js";

/** The popular-site finding of a domain or URL, given the findings so far (an allowlisted entity needs none: the allowlist says more). */
export function popularSiteFindings(entity: Entity, ref: ReferenceData, findings: readonly Finding[]): Finding[] {
  if (entity.type !== "domain" && entity.type !== "url") return [];
  for (const f of findings) if (f.code === "intel.allowlisted") return [];
  const a = entity.attributes;
  const registered = a.registered_domain;
  if (typeof registered !== "string" || !ref.popularSites.has(registered)) return [];
  const sub = typeof a.subdomain === "string" ? a.subdomain : "";
  const suffix = typeof a.public_suffix === "string" ? a.public_suffix : "";
  if (freeHostOf(registered, sub, suffix, a.private_suffix === true, ref) !== null) return [];
  return [
    {
      code: "domain.popular_site",
      family: "intel",
      message: `${registered} is one of the web's most-linked sites: its name is not read as a sign of a scam`,
      evidence: { domain: registered },
      source: source(ref, "popular-sites"),
    },
  ];
}
