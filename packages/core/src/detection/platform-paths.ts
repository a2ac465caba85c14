import type { BrandShortDomain, Redirector, UserContentPaths } from "@svc/intel";
import type { Entity } from "../entities/types.js";

/**
 * Where an allowlisted platform serves other people's content (decision 0016). The allowlist
 * vouches for the operator's own pages; on these paths the page is a user's:
 * - an open redirector (`google.com/url?q=…`) forwards to whatever its query names: the target is
 *   screened in its place;
 * - a profile (`x.com/name`) is that account, screened as the social account;
 * - a user-content path (`dropbox.com/s/…`, `/ipfs/…` on a gateway) is judged on its address.
 */
export interface PlatformTable {
  /** Exact hosts (and the same with "www.") → their rules. */
  readonly hosts: ReadonlyMap<string, HostRules>;
  /** "*.domain" rules, by the domain: matched against the parents of a host. */
  readonly wildcards: ReadonlyMap<string, HostRules>;
  /** Brands' own short domains (youtu.be, aka.ms, forms.gle) → brand id, its name and where they lead. */
  readonly shortDomains: ReadonlyMap<string, { readonly brand: string; readonly brandName: string; readonly leadsTo: string }>;
}

export interface HostRules {
  readonly redirects: readonly { readonly paths: readonly string[]; readonly params: readonly string[] }[];
  readonly content: readonly { readonly paths: readonly string[]; readonly what: string }[];
}

export type PlatformReading =
  | { readonly kind: "profile"; readonly account: string }
  | { readonly kind: "redirect"; readonly redirector: string; readonly param: string; readonly target: string }
  | { readonly kind: "user_content"; readonly platform: string; readonly what: string; readonly listed: boolean };

export function buildPlatformTable(data: { readonly redirectors: readonly Redirector[]; readonly userContent: readonly UserContentPaths[]; readonly shortDomains: readonly BrandShortDomain[] }): PlatformTable {
  const hosts = new Map<string, { redirects: HostRules["redirects"][number][]; content: HostRules["content"][number][] }>();
  const wildcards = new Map<string, { redirects: HostRules["redirects"][number][]; content: HostRules["content"][number][] }>();
  const rulesFor = (host: string): { redirects: HostRules["redirects"][number][]; content: HostRules["content"][number][] } => {
    const wild = host.startsWith("*.");
    const map = wild ? wildcards : hosts;
    const key = wild ? host.slice(2) : host;
    let r = map.get(key);
    if (!r) map.set(key, (r = { redirects: [], content: [] }));
    return r;
  };
  const eachHost = (list: readonly string[], f: (h: string) => void): void => {
    for (const h of list) {
      f(h);
      if (!h.startsWith("*.") && !h.startsWith("www.")) f(`www.${h}`);
    }
  };
  for (const r of data.redirectors) eachHost(r.hosts, (h) => rulesFor(h).redirects.push({ paths: r.paths, params: r.params }));
  for (const c of data.userContent) eachHost(c.hosts, (h) => rulesFor(h).content.push({ paths: c.paths, what: c.what }));
  return { hosts, wildcards, shortDomains: new Map(data.shortDomains.map((s) => [s.domain, { brand: s.brand, brandName: s.brandName, leadsTo: s.leadsTo }])) };
}

/** A path rule: a whole path, or a prefix when it ends in "/" ("/" itself: every path). */
const pathMatches = (paths: readonly string[], path: string): boolean =>
  paths.some((p) => (p.endsWith("/") ? path.startsWith(p) || path === p.slice(0, -1) : path === p || path === `${p}/`));

function wildcardRules(host: string, table: PlatformTable): HostRules | undefined {
  if (table.wildcards.size === 0) return undefined;
  for (let dot = host.indexOf("."); dot >= 0; dot = host.indexOf(".", dot + 1)) {
    const r = table.wildcards.get(host.slice(dot + 1));
    if (r) return r;
  }
  return undefined;
}

/** The first of `params` present and non-empty in the URL's query, decoded once (as the redirector decodes it). */
function queryTarget(url: string, params: readonly string[]): { param: string; target: string } | null {
  let query: URLSearchParams;
  try {
    query = new URL(url).searchParams;
  } catch {
    return null;
  }
  for (const p of params) {
    const v = query.get(p)?.trim();
    if (v) return { param: p, target: v };
  }
  return null;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/**
 * What a URL on a platform is: a profile, a redirect to elsewhere, a user's content, or (null) an
 * ordinary page. `freeHost` names the platform when the host is a user's sub-domain of a free
 * host (the lexical detector's reading), whose whole site is user content.
 */
export function readPlatformUrl(entity: Pick<Entity, "type" | "value" | "attributes">, table: PlatformTable, freeHost: string | null): PlatformReading | null {
  if (entity.type !== "url") return null;
  const a = entity.attributes;
  const account = str(a.social_account);
  if (account) return { kind: "profile", account };
  const host = str(a.host);
  if (!host || a.ip_literal) return null;
  const rules = table.hosts.get(host) ?? wildcardRules(host, table);
  if (rules) {
    const path = str(a.path) ?? "/";
    if (a.has_query === true) {
      for (const r of rules.redirects) {
        if (!pathMatches(r.paths, path)) continue;
        const t = queryTarget(entity.value, r.params);
        if (t) return { kind: "redirect", redirector: host, param: t.param, target: t.target };
      }
    }
    for (const c of rules.content) if (pathMatches(c.paths, path)) return { kind: "user_content", platform: host, what: c.what, listed: true };
    // A path of the platform's own (google.com/search, dropbox.com/pricing), or a redirector without a target.
  }
  if (freeHost) return { kind: "user_content", platform: freeHost, what: `a site published on ${freeHost}`, listed: false };
  return null;
}
