import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Clock, Finding } from "@svc/core";
import { fetchText, ProviderError, type ProviderAdapter, type ProviderIo } from "./framework.js";

export const TOR_EXIT_ADDRESSES_URL = "https://check.torproject.org/exit-addresses";

/** The Tor exit list, parsed: IPv4 exit addresses and the newest time the list vouches for. */
export interface TorExitList {
  readonly addresses: ReadonlySet<string>;
  readonly relays: number;
  /** ISO time of the newest `LastStatus`/`ExitAddress` entry: the list's own version. */
  readonly asOf: string | null;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const TOR_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/**
 * The Tor Project's exit list format (check.torproject.org/exit-addresses): records of
 * `ExitNode <fingerprint>`, `Published`, `LastStatus` and one or more `ExitAddress <ip> <time>`
 * lines. Throws on a text with no ExitNode record (an error page, the wrong URL).
 */
export function parseTorExitAddresses(text: string): TorExitList {
  const addresses = new Set<string>();
  let relays = 0;
  let newest = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("ExitNode ")) {
      if (/^ExitNode [0-9A-F]{40}$/i.test(line)) relays++;
      continue;
    }
    const [keyword, a, b, c] = line.split(/\s+/);
    const time = keyword === "ExitAddress" ? `${b ?? ""} ${c ?? ""}` : keyword === "LastStatus" ? `${a ?? ""} ${b ?? ""}` : null;
    if (keyword === "ExitAddress" && a !== undefined && IPV4.test(a)) addresses.add(a);
    if (time !== null && TOR_TIME.test(time) && time > newest) newest = time;
  }
  if (relays === 0) throw new Error("not a Tor exit list: no ExitNode record");
  const m = TOR_TIME.exec(newest);
  return { addresses, relays, asOf: m ? `${m[1]}T${m[2]}Z` : null };
}

export interface TorExitOptions {
  readonly url?: string | undefined;
  readonly clock: Clock;
  /** How often the list is downloaded again (default 60 minutes). */
  readonly refreshMs?: number;
  /** A list older than this (since its last good download) is not used: the provider is unavailable. */
  readonly maxAgeMs?: number;
  /** For the whole download, body included (default 20 s). */
  readonly downloadTimeoutMs?: number;
}

/**
 * Tor exit nodes from the Tor Project's list, downloaded by this process (at the first check, then
 * every `refreshMs` in the background while checks come) and matched in memory: no request per
 * check, so nothing about the entity leaves. Until a first download succeeds, or once the list is
 * older than `maxAgeMs`, the provider is unavailable for the check, never "not an exit".
 */
export function torExitAdapter(opts: TorExitOptions): ProviderAdapter & { refresh(fetchImpl: typeof fetch): Promise<TorExitList> } {
  const url = opts.url ?? TOR_EXIT_ADDRESSES_URL;
  const refreshMs = opts.refreshMs ?? 3_600_000;
  const maxAgeMs = opts.maxAgeMs ?? 24 * 3_600_000;
  let list: TorExitList | null = null;
  let fetchedAt = 0;
  let triedAt = 0;
  let pending: Promise<TorExitList> | null = null;
  let lastError = "";

  const download = (fetchImpl: typeof fetch): Promise<TorExitList> => {
    pending ??= (async () => {
      triedAt = opts.clock.now().getTime();
      try {
        const io: ProviderIo = { signal: AbortSignal.timeout(opts.downloadTimeoutMs ?? 20_000), fetch: fetchImpl };
        const text = await fetchText(io, "tor-exits", url, { headers: { accept: "text/plain" } });
        if (text === null) throw new ProviderError("http_status", "tor-exits list answered HTTP 404", false);
        let parsed: TorExitList;
        try {
          parsed = parseTorExitAddresses(text);
        } catch (e) {
          throw new ProviderError("malformed", `tor-exits: ${(e as Error).message}`, false);
        }
        list = parsed;
        fetchedAt = opts.clock.now().getTime();
        lastError = "";
        return parsed;
      } catch (e) {
        lastError = (e as Error).message;
        throw e;
      } finally {
        pending = null;
      }
    })();
    return pending;
  };

  const current = async (io: ProviderIo): Promise<TorExitList> => {
    const now = opts.clock.now().getTime();
    if (list !== null && now - fetchedAt < maxAgeMs) {
      // Stale but usable: refresh in the background (one download at a time, not more often than refreshMs).
      if (now - fetchedAt >= refreshMs && now - triedAt >= Math.min(refreshMs, 60_000)) download(io.fetch).catch(() => undefined);
      return list;
    }
    // Nothing usable: wait for a download, within this check's deadline; failed tries are spaced by a minute.
    if (pending === null && now - triedAt < 60_000 && lastError !== "") throw new ProviderError("unreachable", `tor-exits list is not available (${lastError})`, false);
    const p = download(io.fetch);
    return await new Promise<TorExitList>((resolve, reject) => {
      if (io.signal.aborted) return reject(new ProviderError("timeout", "tor-exits list did not arrive in time", false));
      const onAbort = (): void => reject(new ProviderError("timeout", "tor-exits list did not arrive in time", false));
      io.signal.addEventListener("abort", onAbort, { once: true });
      p.then(resolve, reject).finally(() => io.signal.removeEventListener("abort", onAbort));
    });
  };

  return {
    name: "tor-exits",
    types: ["ip_address"],
    local: true,
    async lookup(query, io) {
      const l = await current(io);
      if (!l.addresses.has(query.value)) return [];
      return [{
        code: "reputation.ip_tor_exit",
        family: "reputation",
        message: "A Tor exit node: traffic from many anonymous people leaves the Tor network here",
        evidence: { tor: true, list_as_of: l.asOf },
        source: { name: "tor-exits", version: l.asOf ?? "undated" },
      } satisfies Finding];
    },
    async probe(io) {
      const l = await download(io.fetch);
      return `downloaded ${l.addresses.size} exit addresses of ${l.relays} relays (as of ${l.asOf ?? "undated"}) from ${url}`;
    },
    refresh: (fetchImpl) => download(fetchImpl),
  };
}

/** IPv4 ranges → AS number, country and name (the iptoasn.com TSV), searched by binary search. */
export class AsnTable {
  private constructor(
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    private readonly asns: Uint32Array,
    private readonly meta: readonly { country: string; name: string }[],
    private readonly metaIndex: Uint32Array,
    readonly ranges: number,
  ) {}

  /**
   * The iptoasn.com format (`ip2asn-v4.tsv`, or `ip2asn-combined.tsv` whose IPv6 lines are
   * skipped): `range_start \t range_end \t AS_number \t country_code \t AS_description`, sorted or
   * not. AS 0 ("Not routed") ranges are dropped. Throws when no line is of that shape.
   */
  static fromTsv(text: string): AsnTable {
    const rows: [number, number, number, number][] = [];
    const meta: { country: string; name: string }[] = [];
    const metaOf = new Map<string, number>();
    let bad = 0;
    for (const line of text.split("\n")) {
      if (line.length === 0 || line.startsWith("#")) continue;
      const f = line.split("\t");
      if (f.length < 5) { bad++; continue; }
      const [s, e, asn, country, name] = f as [string, string, string, string, string];
      if (s.includes(":")) continue;
      const start = ipv4ToInt(s);
      const end = ipv4ToInt(e);
      const as = Number(asn);
      if (start === null || end === null || end < start || !Number.isInteger(as) || as < 0) { bad++; continue; }
      if (as === 0) continue;
      const key = `${as}\u0000${country}\u0000${name.trim()}`;
      let m = metaOf.get(key);
      if (m === undefined) {
        m = meta.length;
        meta.push({ country: country === "None" ? "" : country.slice(0, 2), name: name.trim().slice(0, 120) });
        metaOf.set(key, m);
      }
      rows.push([start, end, as, m]);
    }
    if (rows.length === 0) throw new Error(`not an iptoasn TSV: no range line (${bad} lines of another shape)`);
    rows.sort((a, b) => a[0] - b[0]);
    const n = rows.length;
    const starts = new Uint32Array(n), ends = new Uint32Array(n), asns = new Uint32Array(n), idx = new Uint32Array(n);
    rows.forEach((r, i) => { starts[i] = r[0]; ends[i] = r[1]; asns[i] = r[2]; idx[i] = r[3]; });
    return new AsnTable(starts, ends, asns, meta, idx, n);
  }

  /** From a file; `.gz` is unzipped. */
  static load(path: string): AsnTable {
    const raw = readFileSync(path);
    return AsnTable.fromTsv((path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
  }

  lookup(ip: string): { asn: number; country: string; name: string; range: string } | null {
    const v = ipv4ToInt(ip);
    if (v === null) return null;
    let lo = 0, hi = this.starts.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.starts[mid] as number) <= v) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    if (found < 0 || (this.ends[found] as number) < v) return null;
    const m = this.meta[this.metaIndex[found] as number] as { country: string; name: string };
    return { asn: this.asns[found] as number, country: m.country, name: m.name, range: `${intToIpv4(this.starts[found] as number)}-${intToIpv4(this.ends[found] as number)}` };
  }
}

/**
 * A list of hosting (data-centre, cloud, VPS) AS numbers: one per line as `AS16509` or `16509`,
 * optionally followed by `,`/tab/space and a name; `#` comments and a header line are skipped.
 */
export function parseAsnList(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith("#")) continue;
    const m = /^"?(?:AS)?(\d{1,10})"?(?=[,\t ]|$)/i.exec(line);
    if (!m) continue;
    const asn = Number(m[1]);
    const name = line.slice(m[0].length).replace(/^[,\t ]+/, "").replace(/^"|"$/g, "").trim();
    if (asn > 0 && asn <= 4_294_967_295) out.set(asn, name.slice(0, 120));
  }
  if (out.size === 0) throw new Error("not a list of AS numbers: no line starts with one");
  return out;
}

/**
 * An IP address's network from a fed iptoasn table: its AS (a 0-point fact), and "hosting provider"
 * when the AS is on the fed hosting list: scam sites and phishing kits live in data centres, people
 * do not browse from them. Answers from memory: nothing leaves the process.
 */
export function asnAdapter(opts: { table: AsnTable; hosting?: ReadonlyMap<number, string> | undefined; version: string }): ProviderAdapter {
  const source = { name: "ip-asn", version: opts.version };
  return {
    name: "ip-asn",
    types: ["ip_address"],
    local: true,
    lookup(query) {
      const hit = opts.table.lookup(query.value);
      if (hit === null) return Promise.resolve([]);
      const findings: Finding[] = [{
        code: "reputation.ip_asn",
        family: "reputation",
        message: `Announced by AS${hit.asn} ${hit.name}${hit.country ? ` (${hit.country})` : ""}`,
        evidence: { asn: hit.asn, as_name: hit.name, country: hit.country || null, range: hit.range },
        source,
      }];
      const hosting = opts.hosting?.get(hit.asn);
      if (hosting !== undefined) {
        findings.push({
          code: "reputation.ip_hosting",
          family: "reputation",
          message: `A hosting provider's network (AS${hit.asn} ${hosting || hit.name}): servers, VPNs and proxies, not people at home`,
          evidence: { asn: hit.asn, as_name: hosting || hit.name },
          source,
        });
      }
      return Promise.resolve(findings);
    },
    probe() {
      return Promise.resolve(`${opts.table.ranges} ranges loaded (${opts.version})${opts.hosting ? `, ${opts.hosting.size} hosting AS numbers` : ", no hosting list"}`);
    },
  };
}

function ipv4ToInt(s: string): number | null {
  if (!IPV4.test(s)) return null;
  const p = s.split(".").map(Number);
  return (((p[0] as number) << 24) >>> 0) + ((p[1] as number) << 16) + ((p[2] as number) << 8) + (p[3] as number);
}

const intToIpv4 = (n: number): string => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
