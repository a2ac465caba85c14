import ipaddr from "ipaddr.js";
import { entityError, parsed, type TypedParse } from "./types.js";

/**
 * IPv4 only, in strict dotted-quad form. Other spellings that some software accepts
 * (`0177.0.0.1` octal, `0x7f.1` hex, `127.1` short, `2130706433` integer) are refused as
 * ambiguous: inet_aton, browsers and humans read them differently, and a verdict on the
 * wrong address is worse than none. Inside URLs we follow the browser (WHATWG) reading
 * instead, because that is where the victim's browser will go — see url.ts.
 * IPv6 is recognised and refused as unsupported (see docs/decisions/0003-ip-addresses.md).
 */
const DECIMAL_OCTET = /^(?:0|[1-9]\d{0,2})$/;
const NUMERIC_PART = /^(?:0x[0-9a-f]*|\d+)$/i;

export function parseIpv4Strict(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const p of parts) {
    if (!DECIMAL_OCTET.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets;
}

/** Dotted or 0x-prefixed numbers that some resolver would take for an IPv4 address. */
export function looksLikeLooseIpv4(s: string): boolean {
  if (s.length === 0 || s.length > 64) return false;
  const parts = s.split(".");
  if (parts.length > 4) return false;
  if (parts.length === 1 && !/^0x/i.test(s)) return false;
  return parts.every((p) => NUMERIC_PART.test(p));
}

/** The values software may read a numeric part as: decimal, octal after a leading 0, hex after 0x. */
function partReadings(p: string): number[] {
  if (/^0x/i.test(p)) return [p.length === 2 ? 0 : parseInt(p.slice(2), 16)];
  const out = [Number(p)];
  if (p.length > 1 && p.startsWith("0") && /^[0-7]+$/.test(p)) out.push(parseInt(p, 8));
  return out;
}

/**
 * The first part of a dotted numeric form that is too big under every reading (decimal, octal,
 * hex), as written; null when some reading fits. Every part must fit in a byte, except the last
 * of a short form (`1.2.70000` is a legal, if odd, spelling), so `999.1.1.1` is simply invalid,
 * not ambiguous: no software reads it as an address.
 */
function partOutOfRange(s: string): string | null {
  const parts = s.split(".");
  if (parts.length < 2) return null;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const last = i === parts.length - 1;
    const max = last ? 2 ** (8 * (5 - parts.length)) - 1 : 255;
    if (partReadings(p).every((n) => n > max)) return last && parts.length < 4 ? null : p;
  }
  return null;
}

export function looksLikeIpv6(s: string): boolean {
  const body = s.startsWith("[") && s.endsWith("]") ? s.slice(1, -1) : s;
  return body.includes(":") && ipaddr.IPv6.isValid(body);
}

export function ipv4Range(octets: readonly number[]): string {
  return ipaddr.fromByteArray([...octets]).range();
}

export function parseIpAddress(s: string): TypedParse {
  const octets = parseIpv4Strict(s);
  if (octets) {
    return parsed(octets.join("."), { version: 4, range: ipv4Range(octets) });
  }
  if (looksLikeIpv6(s)) {
    const body = s.startsWith("[") ? s.slice(1, -1) : s;
    const v6 = ipaddr.IPv6.parse(body);
    const hint = v6.isIPv4MappedAddress() ? ` It maps the IPv4 address ${v6.toIPv4Address().toString()}; screen that instead.` : "";
    return entityError("entity.unsupported", `IPv6 addresses are not screened yet; only IPv4 is supported.${hint}`, "ip_address");
  }
  const outOfRange = looksLikeLooseIpv4(s) ? partOutOfRange(s) : null;
  if (outOfRange) {
    return entityError(
      "entity.invalid",
      `"${s}" is not an IPv4 address: ${outOfRange} is more than 255 (an IPv4 address is four numbers 0–255 separated by dots).`,
      "ip_address",
    );
  }
  if (looksLikeLooseIpv4(s)) {
    let reading = "";
    try {
      reading = new URL(`http://${s}/`).hostname;
    } catch {
      /* not even a browser reads it as an address */
    }
    const asRead = parseIpv4Strict(reading) ? ` (a browser would read it as ${reading})` : "";
    return entityError(
      "entity.ambiguous",
      `"${s}" is not a dotted-quad IPv4 address${asRead}; leading zeros, hex, short and integer forms are read differently by different software. Write it as four decimal numbers, like 192.0.2.1.`,
      "ip_address",
    );
  }
  return entityError("entity.invalid", `"${s}" is not an IPv4 address (expected four numbers 0–255 separated by dots).`, "ip_address");
}
