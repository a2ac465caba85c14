// Writes packages/intel/data/popular-sites.json: the registrable domains of the most-linked sites
// on the web, from the pinned `top-sites` package (MIT), so that the screening engine can keep a
// popular site from ever scoring high on its name (decision 0051).
//   npx tsx tools/train/popular-sites.ts
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseEntity } from "@svc/core";
import { PINNED, ROOT, topSites } from "../npm-data.js";

export const POPULAR_SITES_VERSION = "2026.11.1";

// The list names hosts (www.google.com, docs.google.com); the engine reads registrable domains.
const registrable = (host: string): string | null => {
  const p = parseEntity(host, { type: "domain" });
  return p.ok && typeof p.entity.attributes.registered_domain === "string" ? p.entity.attributes.registered_domain : null;
};
const sites = [...topSites()].sort((a, b) => a.rank - b.rank).map((t) => registrable(t.rootDomain.trim().toLowerCase()));
const unique = [...new Set(sites.filter((d): d is string => d !== null))];
const file = {
  source: "derived by tools/train/popular-sites.ts from a pinned npm package",
  version: POPULAR_SITES_VERSION,
  licence: "MIT (top-sites; notice in SOURCES.md)",
  note: "Registrable domains of the web's most-linked sites, by rank. A popular site's own name never scores high (a capped score and a domain.popular_site signal); a user's site on one (a sub-domain of a hosting platform, a user-content domain) is not vouched for, and a block-list entry still wins.",
  package: "top-sites",
  package_version: PINNED["top-sites"].version,
  package_licence: PINNED["top-sites"].licence,
  sites: unique,
};
const out = join(ROOT, "packages", "intel", "data", "popular-sites.json");
writeFileSync(out, `${JSON.stringify(file, null, 1)}\n`);
console.log(`wrote ${unique.length} popular sites → ${out}`);
