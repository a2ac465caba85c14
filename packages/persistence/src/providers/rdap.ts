import { readFileSync } from "node:fs";
import { parseEntity, type Clock, type Finding } from "@svc/core";
import { fetchJson, ProviderError, type ProviderAdapter, type ProviderIo, type ProviderQuery } from "./framework.js";

export const IANA_RDAP_DNS_URL = "https://data.iana.org/rdap/dns.json";

/** The IANA RDAP bootstrap registry for domains (RFC 9224): which RDAP server answers for a TLD. */
export class RdapBootstrap {
  private constructor(private readonly byTld: ReadonlyMap<string, string>, readonly publication: string) {}

  /** Reads the IANA file's format; throws on anything else (a bad refresh must not replace a good file). */
  static fromIana(json: unknown): RdapBootstrap {
    const j = json as { services?: unknown; publication?: unknown };
    if (!j || !Array.isArray(j.services)) throw new Error("not an RDAP bootstrap file: no services array");
    const byTld = new Map<string, string>();
    for (const s of j.services as unknown[]) {
      if (!Array.isArray(s) || !Array.isArray(s[0]) || !Array.isArray(s[1])) throw new Error("not an RDAP bootstrap file: a service is not [[tlds], [urls]]");
      const urls = (s[1] as unknown[]).filter((u): u is string => typeof u === "string" && /^https?:\/\//.test(u));
      const url = urls.find((u) => u.startsWith("https://")) ?? urls[0];
      if (!url) continue;
      for (const tld of s[0] as unknown[]) if (typeof tld === "string") byTld.set(tld.toLowerCase(), url.endsWith("/") ? url : `${url}/`);
    }
    if (byTld.size === 0) throw new Error("not an RDAP bootstrap file: no TLDs");
    return new RdapBootstrap(byTld, typeof j.publication === "string" ? j.publication : "unknown");
  }

  /** The snapshot bundled with svc (data/SOURCES.md). */
  static bundled(): RdapBootstrap {
    return RdapBootstrap.fromIana(JSON.parse(readFileSync(new URL("./data/rdap-dns-bootstrap.json", import.meta.url), "utf8")));
  }

  /** From a file (a refreshed IANA copy), else the bundled snapshot. */
  static load(path: string | undefined): RdapBootstrap {
    if (!path) return RdapBootstrap.bundled();
    try {
      return RdapBootstrap.fromIana(JSON.parse(readFileSync(path, "utf8")));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return RdapBootstrap.bundled();
      throw e;
    }
  }

  get tlds(): number {
    return this.byTld.size;
  }

  baseFor(tld: string): string | null {
    return this.byTld.get(tld.toLowerCase()) ?? null;
  }
}

/** Downloads the current IANA bootstrap file and checks it parses; returns its text (the caller stores it). */
export async function fetchRdapBootstrap(fetchImpl: typeof fetch = fetch, url = IANA_RDAP_DNS_URL, timeoutMs = 20_000): Promise<{ text: string; bootstrap: RdapBootstrap }> {
  const res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  const text = await res.text();
  return { text, bootstrap: RdapBootstrap.fromIana(JSON.parse(text)) };
}

export interface RdapOptions {
  /** `SVC_RDAP_URL`: one RDAP base for every TLD (`GET {base}domain/{name}`). */
  readonly baseUrl?: string | undefined;
  readonly bootstrap: RdapBootstrap;
  readonly clock: Clock;
  /** A domain registered fewer days ago than this is "new". */
  readonly newDomainDays?: number;
}

const DAY_MS = 86_400_000;
const HOLD_STATUSES = new Set(["client hold", "server hold", "clienthold", "serverhold"]);

interface RdapEvent { eventAction?: unknown; eventDate?: unknown }
interface RdapEntity { roles?: unknown; vcardArray?: unknown; publicIds?: unknown }
interface RdapDomain { objectClassName?: unknown; ldhName?: unknown; events?: unknown; status?: unknown; entities?: unknown }

/**
 * RDAP (RFC 9083) for the registered domain of a domain, e-mail or URL: registration date (age),
 * registrar and status. A new domain adds risk, held domains (clientHold, serverHold) too; an old
 * one adds a 0-point fact, never a lower score.
 */
export function rdapAdapter(opts: RdapOptions): ProviderAdapter {
  const newDays = opts.newDomainDays ?? 90;
  const base = opts.baseUrl ? (opts.baseUrl.endsWith("/") ? opts.baseUrl : `${opts.baseUrl}/`) : null;
  const source = { name: "rdap", version: base ? "custom" : `iana-${opts.bootstrap.publication}` };
  return {
    name: "rdap",
    types: ["domain", "email", "url"],
    async lookup(query: ProviderQuery, io: ProviderIo): Promise<readonly Finding[]> {
      const parsed = parseEntity(query.value, { type: query.type as "domain" });
      if (!parsed.ok) return [];
      const domain = parsed.entity.attributes.registered_domain;
      const tld = parsed.entity.attributes.tld;
      if (typeof domain !== "string" || typeof tld !== "string") return [];
      const server = base ?? opts.bootstrap.baseFor(tld);
      if (server === null) throw new ProviderError("http_status", `rdap has no server for .${tld} in its bootstrap file (refresh it: svc providers rdap-bootstrap)`, false);
      const body = await fetchJson(io, "rdap", `${server}domain/${encodeURIComponent(domain)}`, { headers: { accept: "application/rdap+json, application/json" } });
      if (body === null) return []; // 404: the registry has no such domain
      return readDomain(body as RdapDomain, domain, opts.clock.now(), newDays, source);
    },
    async probe(io: ProviderIo): Promise<string> {
      const server = base ?? opts.bootstrap.baseFor("com");
      if (server === null) return `bootstrap ${opts.bootstrap.publication} (${opts.bootstrap.tlds} TLDs)`;
      const body = await fetchJson(io, "rdap", `${server}domain/example.com`, { headers: { accept: "application/rdap+json" } });
      return `reachable (${server}); example.com ${body === null ? "not found" : "found"}; bootstrap ${opts.bootstrap.publication} (${opts.bootstrap.tlds} TLDs)`;
    },
  };
}

function readDomain(body: RdapDomain, domain: string, now: Date, newDays: number, source: { name: string; version: string }): Finding[] {
  if (typeof body !== "object" || body === null || (body.objectClassName !== undefined && body.objectClassName !== "domain")) {
    throw new ProviderError("malformed", "rdap answered something that is not a domain object (RFC 9083)", false);
  }
  const events = Array.isArray(body.events) ? (body.events as RdapEvent[]) : [];
  const registration = events.find((e) => e && e.eventAction === "registration");
  const registeredAt = typeof registration?.eventDate === "string" ? Date.parse(registration.eventDate) : Number.NaN;
  const statuses = Array.isArray(body.status) ? (body.status as unknown[]).filter((s): s is string => typeof s === "string") : [];
  const registrar = registrarOf(body.entities);
  const findings: Finding[] = [];
  const ageDays = Number.isNaN(registeredAt) ? null : Math.max(0, Math.floor((now.getTime() - registeredAt) / DAY_MS));
  const registeredIso = Number.isNaN(registeredAt) ? null : new Date(registeredAt).toISOString();
  findings.push({
    code: "reputation.domain_registered",
    family: "reputation",
    message: `${domain} ${ageDays === null ? "has no registration date in its registry record" : `was registered ${ageDays} day${ageDays === 1 ? "" : "s"} ago`}${registrar ? ` through ${registrar}` : ""}`,
    evidence: { domain, registered_at: registeredIso, age_days: ageDays, registrar, status: statuses.join(",") },
    source,
    ...(registeredIso ? { observed_at: registeredIso } : {}),
  });
  if (ageDays !== null && ageDays < newDays) {
    // Newest is riskiest: full weight in the first week, fading to a third at `newDays`.
    const strength = ageDays <= 7 ? 1 : Math.max(0.33, 1 - (0.67 * (ageDays - 7)) / Math.max(1, newDays - 7));
    findings.push({
      code: "reputation.domain_new",
      family: "reputation",
      message: `${domain} was registered only ${ageDays} day${ageDays === 1 ? "" : "s"} ago; most scam sites are days or weeks old`,
      evidence: { domain, registered_at: registeredIso, age_days: ageDays },
      source,
      strength: Math.round(strength * 100) / 100,
      observed_at: registeredIso as string,
    });
  }
  const held = statuses.filter((s) => HOLD_STATUSES.has(s.toLowerCase()));
  if (held.length > 0) {
    findings.push({
      code: "reputation.domain_on_hold",
      family: "reputation",
      message: `${domain} is on hold at its registry (${held.join(", ")}): suspended, often for abuse`,
      evidence: { domain, status: held.join(",") },
      source,
    });
  }
  return findings;
}

function registrarOf(entities: unknown): string | null {
  if (!Array.isArray(entities)) return null;
  for (const e of entities as RdapEntity[]) {
    if (!e || !Array.isArray(e.roles) || !(e.roles as unknown[]).includes("registrar")) continue;
    // jCard (RFC 7095): ["vcard", [["fn", {}, "text", "Name"], ...]]
    const card = Array.isArray(e.vcardArray) ? (e.vcardArray as unknown[])[1] : null;
    if (Array.isArray(card)) {
      for (const prop of card as unknown[]) {
        if (Array.isArray(prop) && prop[0] === "fn" && typeof prop[3] === "string") return prop[3].slice(0, 200);
      }
    }
  }
  return null;
}
