// Popular sites (decision 0051): the registrable domains of the web's most-linked sites, from the
// pinned top-sites list in @svc/intel. Such a site's own name is not evidence against it: the
// finding is informational and the ruleset caps the score (a block-list entry still counts). A
// user's site on a hosting platform or a user-content domain is not the platform's, and is not
// vouched for. A hosting platform's own domain (`vercel.app`, `weebly.com`) is read the same way:
// its name describes the platform, not any site on it (decision 0103).
import type { Entity } from "../../entities/types.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";
import { freeHostOf } from "./lexical.js";

/**
 * The popular-site finding of a domain or URL, given the findings so far (an allowlisted entity
 * needs none: the allowlist says more); or, for a hosting platform's own domain, the platform's.
 */
export function popularSiteFindings(entity: Entity, ref: ReferenceData, findings: readonly Finding[]): Finding[] {
  if (entity.type !== "domain" && entity.type !== "url") return [];
  for (const f of findings) if (f.code === "intel.allowlisted") return [];
  const a = entity.attributes;
  const registered = a.registered_domain;
  if (typeof registered !== "string") return [];
  const sub = typeof a.subdomain === "string" ? a.subdomain : "";
  const suffix = typeof a.public_suffix === "string" ? a.public_suffix : "";
  const platform = platformOwnDomain(registered, sub, suffix, a, ref);
  if (platform !== null) {
    return [
      {
        code: "domain.hosting_platform",
        family: "intel",
        message: `${platform} is the hosting platform's own domain, not a user's site on it: its name is not read as a sign of a scam (a site on it is judged by its own name)`,
        evidence: { platform },
        source: source(ref, typeof a.platform_suffix === "string" ? "svc-lists" : "free-hosting"),
      },
    ];
  }
  if (!ref.popularSites.has(registered)) return [];
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

/**
 * The hosting platform whose own domain this is: a private suffix of the Public Suffix List named
 * by itself (`vercel.app`, `github.io`, `webflow.io`: the parser marks it `platform_suffix`) or
 * with `www`, or a free host we list, itself or its `www` (`weebly.com`). Null for a user's site.
 */
function platformOwnDomain(registered: string, sub: string, suffix: string, a: Entity["attributes"], ref: ReferenceData): string | null {
  if (typeof a.platform_suffix === "string") return sub === "" || sub === "www" ? a.platform_suffix : null;
  if (a.private_suffix === true) return sub === "" && registered === `www.${suffix}` ? suffix : null;
  return (sub === "" || sub === "www") && ref.freeHosting.has(registered) ? registered : null;
}
