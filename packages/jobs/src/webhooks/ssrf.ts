import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import type { WebhookUrlCheck, WebhookUrlGuard } from "@svc/server-ports";
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Host name → every address it resolves to (A and AAAA). Injected in tests. */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const RESOLVE_TIMEOUT_MS = 5_000;
/** Global unicast IPv6; everything else (ULA, link-local, IPv4-compatible ::/96, ...) is refused outright. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

export class SsrfBlockedError extends Error {
  override readonly name = "SsrfBlockedError";
  readonly code = "ESSRFBLOCKED";
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

/**
 * Which addresses webhooks may reach: public unicast only, by ipaddr.js's classification after
 * unwrapping IPv4-mapped IPv6, plus the ranges listed in SVC_WEBHOOK_ALLOWED_CIDRS (comma-
 * separated; empty by default; tests and local development list e.g. `127.0.0.1/32`).
 */
export class AddressPolicy {
  private readonly allowed: readonly [Address, number][];

  constructor(allowedCidrs: string | readonly string[] = "") {
    const list = typeof allowedCidrs === "string" ? allowedCidrs.split(",") : allowedCidrs;
    this.allowed = list.map((c) => c.trim()).filter((c) => c.length > 0).map((c) => {
      try {
        const [addr, bits] = c.includes("/") ? ipaddr.parseCIDR(c) : [ipaddr.parse(c), ipaddr.parse(c).kind() === "ipv4" ? 32 : 128];
        const a = addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
        const b = a === addr ? bits : bits - 96;
        return [a, b] as [Address, number];
      } catch {
        throw new Error(`SVC_WEBHOOK_ALLOWED_CIDRS: "${c}" is not an IP address or CIDR range`);
      }
    });
  }

  /** True when `ip` (any textual form ipaddr.js parses) may be connected to. */
  allows(ip: string): boolean {
    let addr: Address;
    try {
      addr = ipaddr.process(ip.replace(/^\[|\]$/g, ""));
    } catch {
      return false;
    }
    for (const [net, bits] of this.allowed) if (addr.kind() === net.kind() && addr.match(net, bits)) return true;
    if (addr.kind() === "ipv6" && !addr.match(GLOBAL_UNICAST_V6)) return false;
    return addr.range() === "unicast";
  }
}

/** The host of a URL without IPv6 brackets. */
export const hostOfUrl = (u: URL): string => u.hostname.replace(/^\[|\]$/g, "");

async function resolveWithin(resolve: Resolver, host: string, ms: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`resolving ${host} took longer than ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The submission-time check. The WHATWG URL parser already turns decimal, octal, hex and short
 * IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) into dotted quads, and IPv6
 * into its canonical form; names are resolved (A and AAAA) and every address must pass.
 */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy, resolve: Resolver = systemResolver): Promise<WebhookUrlCheck> {
  const invalid = (message: string): WebhookUrlCheck => ({ ok: false, code: "webhook.url_invalid", message });
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return invalid(`webhook_url is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return invalid("webhook_url is not an absolute URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return invalid(`webhook_url must use http or https, not ${u.protocol.replace(/:$/, "")}`);
  if (u.username || u.password) return invalid("webhook_url must not contain credentials (user:password@)");
  const host = hostOfUrl(u);
  if (!host) return invalid("webhook_url has no host");
  const forbidden = (address: string): WebhookUrlCheck => ({
    ok: false,
    code: "webhook.url_forbidden",
    message: address === host
      ? `webhook_url points to ${address}, which is not a public address`
      : `webhook_url's host ${host} resolves to ${address}, which is not a public address`,
  });
  if (isIP(host)) return policy.allows(host) ? { ok: true, url: u.href } : forbidden(host);
  let addresses: string[];
  try {
    addresses = await resolveWithin(resolve, host, RESOLVE_TIMEOUT_MS);
  } catch (e) {
    return { ok: false, code: "webhook.url_unresolvable", message: `webhook_url's host ${host} could not be resolved (${e instanceof Error ? e.message : String(e)})` };
  }
  if (addresses.length === 0) return { ok: false, code: "webhook.url_unresolvable", message: `webhook_url's host ${host} has no addresses` };
  const bad = addresses.find((a) => !policy.allows(a));
  return bad === undefined ? { ok: true, url: u.href } : forbidden(bad);
}

export class SsrfWebhookUrlGuard implements WebhookUrlGuard {
  constructor(private readonly policy: AddressPolicy, private readonly resolve: Resolver = systemResolver) {}
  check(url: string): Promise<WebhookUrlCheck> {
    return checkWebhookUrl(url, this.policy, this.resolve);
  }
}

/**
 * A `lookup` for sockets: resolves, refuses the connection unless every address passes the
 * policy, and hands the socket only checked addresses, so the address connected is one checked
 * (no window for DNS rebinding between a check and the connect).
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const opts = (typeof options === "object" && options !== null ? options : { family: options }) as { family?: number | string; all?: boolean };
    const cb = callback as (err: NodeJS.ErrnoException | null, address?: string | { address: string; family: number }[], family?: number) => void;
    resolveWithin(resolve, hostname, RESOLVE_TIMEOUT_MS).then((addresses) => {
      const bad = addresses.find((a) => !policy.allows(a));
      if (bad !== undefined) return cb(new SsrfBlockedError(hostname, bad));
      const family = opts.family === 4 || opts.family === "IPv4" ? 4 : opts.family === 6 || opts.family === "IPv6" ? 6 : 0;
      const list = addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => family === 0 || a.family === family);
      const first = list[0];
      if (!first) return cb(Object.assign(new Error(`${hostname} has no usable address`), { code: "ENOTFOUND" }));
      return opts.all ? cb(null, list) : cb(null, first.address, first.family);
    }, (e: unknown) => cb(e instanceof Error ? e : new Error(String(e))));
  };
}
