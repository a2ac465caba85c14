/**
 * Pure conversions of the third-party lists (see data/SOURCES.md) into the shapes svc uses.
 * The lists themselves are imported statically in index.ts; nothing here does I/O.
 */

/** RFC 2606 / RFC 6761 names and other placeholders that are never a real mail provider. */
const RESERVED = new Set(["example.com", "example.net", "example.org", "test.com", "localhost"]);
const RESERVED_TLDS = new Set(["example", "invalid", "localhost", "test", "local"]);

const ASCII_DOMAIN_RE = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9-]{2,63}$/;

/** UTS #46 ToASCII through the WHATWG URL parser (a web standard, no I/O); null when it refuses. */
function toAscii(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

export interface DomainListResult {
  readonly domains: ReadonlySet<string>;
  /** Entries left out, with why (garbage, reserved names): kept for audits and tests. */
  readonly dropped: readonly { readonly entry: string; readonly reason: string }[];
}

/**
 * Turns a third-party list of e-mail domains into the canonical form `@svc/core` compares
 * against: trimmed, lower case, IDNA to ASCII (punycode), no trailing dot. Entries that are not
 * domain names (e.g. a stray `user@host`) or are reserved example names are dropped.
 */
export function canonicalDomainSet(entries: readonly unknown[]): DomainListResult {
  const domains = new Set<string>();
  const dropped: { entry: string; reason: string }[] = [];
  for (const raw of entries) {
    if (typeof raw !== "string") {
      dropped.push({ entry: String(raw), reason: "not a string" });
      continue;
    }
    let d = raw.trim().toLowerCase().replace(/\.$/, "");
    if (d === "") continue;
    if (/[@/\s:]/.test(d)) {
      dropped.push({ entry: raw, reason: "not a domain name" });
      continue;
    }
    if (/\P{ASCII}/u.test(d)) {
      const ascii = toAscii(d);
      if (ascii === null) {
        dropped.push({ entry: raw, reason: "IDNA conversion failed" });
        continue;
      }
      d = ascii;
    }
    if (!ASCII_DOMAIN_RE.test(d)) {
      dropped.push({ entry: raw, reason: "not a domain name" });
      continue;
    }
    const tld = d.slice(d.lastIndexOf(".") + 1);
    if (RESERVED.has(d) || RESERVED_TLDS.has(tld)) {
      dropped.push({ entry: raw, reason: "reserved name" });
      continue;
    }
    domains.add(d);
  }
  return { domains, dropped };
}

/**
 * Converts a UTS #39 confusables table shipped as `{ "<source char>": "<prototype>" }` to a map
 * from the source code point to its prototype string. Keys that are not exactly one code point
 * are rejected: UTS #39 maps single code points only.
 */
export function confusablesMap(table: Readonly<Record<string, string>>): ReadonlyMap<number, string> {
  const map = new Map<number, string>();
  for (const [source, prototype] of Object.entries(table)) {
    const cp = source.codePointAt(0);
    if (cp === undefined || String.fromCodePoint(cp) !== source) {
      throw new Error(`@svc/intel: confusables key ${JSON.stringify(source)} is not a single code point`);
    }
    if (typeof prototype !== "string" || prototype.length === 0) {
      throw new Error(`@svc/intel: confusables entry for U+${cp.toString(16).toUpperCase()} has no prototype`);
    }
    map.set(cp, prototype);
  }
  return map;
}
