import { Resolver } from "node:dns/promises";
import { parseEntity, type Finding } from "@svc/core";
import { ProviderError, type ProviderAdapter, type ProviderIo } from "./framework.js";

export interface DnsOptions {
  /** Resolver addresses (`1.1.1.1`, `127.0.0.1:5353`); empty = the system's. */
  readonly servers: readonly string[];
  /** Per query, in ms (the check's deadline still bounds the whole). */
  readonly timeoutMs?: number;
}

/** "No such record" answers: facts about the name, not failures of the resolver. */
const ABSENT = new Set(["ENODATA", "ENOTFOUND", "NXDOMAIN"]);

/**
 * DNS through node:dns with a configurable resolver. A domain: A, AAAA and NS (no address and no
 * name server at all: it does not resolve). An e-mail: MX of its domain (none: it cannot receive
 * mail, as throwaway sender addresses often cannot).
 */
export function dnsAdapter(opts: DnsOptions): ProviderAdapter {
  const source = { name: "dns", version: opts.servers.length > 0 ? opts.servers.join(",") : "system" };
  const resolverFor = (signal: AbortSignal): Resolver => {
    const r = new Resolver({ timeout: opts.timeoutMs ?? 1_000, tries: 1 });
    if (opts.servers.length > 0) r.setServers([...opts.servers]);
    signal.addEventListener("abort", () => r.cancel(), { once: true });
    return r;
  };
  /** The records, `[]` when the name has none of that type; a resolver failure throws. */
  const ask = async <T>(q: () => Promise<T[]>, signal: AbortSignal): Promise<T[]> => {
    try {
      return await q();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? "";
      if (ABSENT.has(code)) return [];
      if (signal.aborted || code === "ECANCELLED") throw new ProviderError("timeout", "dns did not answer in time", true);
      throw new ProviderError(code === "ETIMEOUT" ? "timeout" : "unreachable", `dns resolver failed (${code || (e as Error).message})`, code !== "EBADRESP" && code !== "EFORMERR");
    }
  };
  return {
    name: "dns",
    types: ["domain", "email"],
    async lookup(query, io: ProviderIo): Promise<readonly Finding[]> {
      const parsed = parseEntity(query.value, { type: query.type as "domain" });
      if (!parsed.ok) return [];
      const r = resolverFor(io.signal);
      if (query.type === "email") {
        const domain = String(parsed.entity.attributes.domain ?? "");
        const mx = await ask(() => r.resolveMx(domain), io.signal);
        if (mx.length > 0) return [];
        return [{
          code: "reputation.domain_no_mail",
          family: "reputation",
          message: `${domain} has no mail server (no MX record): this address cannot receive replies`,
          evidence: { domain, mx: 0 },
          source,
        }];
      }
      const host = parsed.entity.value;
      const [a, aaaa, ns] = await Promise.all([
        ask(() => r.resolve4(host), io.signal),
        ask(() => r.resolve6(host), io.signal),
        ask(() => r.resolveNs(String(parsed.entity.attributes.registered_domain ?? host)), io.signal),
      ]);
      const findings: Finding[] = [{
        code: "reputation.dns_records",
        family: "reputation",
        message: `${host} resolves to ${a.length + aaaa.length} address${a.length + aaaa.length === 1 ? "" : "es"}${ns.length > 0 ? `; name servers ${ns.slice(0, 3).join(", ")}` : ""}`,
        evidence: { a: a.slice(0, 8).join(","), aaaa: aaaa.slice(0, 8).join(","), ns: ns.slice(0, 8).join(",") },
        source,
      }];
      if (a.length === 0 && aaaa.length === 0 && ns.length === 0) {
        findings.push({ code: "reputation.domain_unresolvable", family: "reputation", message: `${host} does not resolve: no address and no name server`, evidence: { domain: host }, source });
      }
      return findings;
    },
    async probe(io) {
      const r = resolverFor(io.signal);
      const ns = await ask(() => r.resolveNs("example.com"), io.signal);
      return `reachable (${source.version}); example.com has ${ns.length} name servers`;
    },
  };
}
