import { parse as parseTld } from "tldts";
import { toUnicode as punycodeToUnicode } from "punycode/punycode.es6.js";
import { entityError, parsed, type EntityAttributes, type EntityError, type TypedParse } from "./types.js";

const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const TLD_OPTIONS = { allowPrivateDomains: true, extractHostname: false, validateHostname: false } as const;
const ICANN_OPTIONS = { ...TLD_OPTIONS, allowPrivateDomains: false } as const;

export interface HostName {
  /** Canonical ASCII form: IDNA (UTS #46, non-transitional) to punycode, lower case, no trailing dot. */
  readonly ascii: string;
  readonly attributes: EntityAttributes;
}

type HostResult = { ok: true; host: HostName } | { ok: false; error: EntityError };

const fail = (message: string): HostResult => entityError("entity.invalid", message, "domain");

/** Characters that can never appear in a host name, whatever the script. */
const isForbiddenHostChar = (c: number): boolean =>
  c <= 0x20 || c === 0x7f || c === 0x2f || c === 0x3f || c === 0x23 || c === 0x40 || c === 0x3a ||
  c === 0x25 || c === 0x5c || c === 0x5b || c === 0x5d || c === 0x3c || c === 0x3e || c === 0x22 ||
  c === 0x27 || c === 0x60 || c === 0x7c || c === 0x5e || c === 0x7b || c === 0x7d || c === 0x2c || c === 0x3b ||
  c === 0x2a || c === 0x21 || c === 0x24 || c === 0x26 || c === 0x28 || c === 0x29 || c === 0x2b || c === 0x3d;

/** True when every character is ASCII letter, digit, hyphen, underscore or dot (the common case, no IDNA needed). */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f;
    if (!ok) return false;
  }
  return true;
}

/** UTS #46 ToASCII through the WHATWG URL parser (a web standard, no I/O); null when it refuses. */
function toAscii(s: string): string | null {
  try {
    return new URL(`http://${s}/`).hostname;
  } catch {
    return null;
  }
}

/** What is wrong with the label `host[start, end)`, or null; the label's text is only cut out for the message. */
function checkLabel(host: string, start: number, end: number, isRegistrable: boolean): string | null {
  const n = end - start;
  if (n === 0) return "has an empty label (two dots in a row)";
  if (n > MAX_LABEL_LENGTH) return `has a label longer than ${MAX_LABEL_LENGTH} characters`;
  if (host.charCodeAt(start) === 0x2d || host.charCodeAt(end - 1) === 0x2d) return `label "${host.slice(start, end)}" starts or ends with a hyphen`;
  if (n >= 4 && host.charCodeAt(start + 2) === 0x2d && host.charCodeAt(start + 3) === 0x2d && !host.startsWith("xn--", start)) {
    return `label "${host.slice(start, end)}" has "--" in positions 3–4, which is reserved for IDNA`;
  }
  for (let i = start; i < end; i++) {
    const c = host.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) continue;
    // Underscores occur in real sub-domains (service labels, some hosting) but never in registered names.
    if (c === 0x5f && !isRegistrable) continue;
    return `label "${host.slice(start, end)}" contains "${host[i]}"`;
  }
  return null;
}

function countDots(s: string): number {
  let n = 0;
  for (let i = s.indexOf("."); i >= 0; i = s.indexOf(".", i + 1)) n++;
  return n;
}

/** One or more ASCII digits and nothing else (`/^\d+$/`). */
function isAllDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * Canonicalises a host name and describes it. Used for domains, URL hosts and e-mail domains,
 * so the three always agree on what a name is.
 */
export function parseHostName(raw: string): HostResult {
  let s = raw.endsWith(".") ? raw.slice(0, -1) : raw;
  if (s.length === 0) return fail("is empty");
  if (s.length > MAX_HOST_LENGTH * 4) return fail(`is longer than ${MAX_HOST_LENGTH} characters`);
  let ascii: string;
  const plain = isPlainAscii(s);
  if (plain && !s.includes("xn--") && !s.includes("XN--")) {
    ascii = s.toLowerCase();
  } else {
    for (let i = 0; i < s.length; i++) {
      if (isForbiddenHostChar(s.charCodeAt(i))) return fail(`contains "${s[i]}", which cannot appear in a host name`);
    }
    const converted = toAscii(s);
    if (converted === null) return fail("is not a valid internationalised domain name");
    s = converted.endsWith(".") ? converted.slice(0, -1) : converted;
    ascii = s;
  }
  if (ascii.length > MAX_HOST_LENGTH) return fail(`is longer than ${MAX_HOST_LENGTH} characters`);
  // Labels are read in place (by their dots), not split out: this runs on every check.
  const labelCount = countDots(ascii) + 1;
  if (labelCount < 2) return fail("needs at least two labels (like example.com)");
  const tldLabel = ascii.slice(ascii.lastIndexOf(".") + 1);
  if (isAllDigits(tldLabel)) return fail("ends in a number, so it is not a domain name");

  let info = parseTld(ascii, TLD_OPTIONS);
  if (!info.publicSuffix || !(info.isIcann || info.isPrivate)) return fail(`has an unknown top-level domain ".${tldLabel}"`);
  // A private suffix (github.io, webflow.io, vercel.app) is also the platform's own name: its
  // sites live under it, but the name itself is registered under the ICANN suffix by the
  // platform. Read it that way, and say which private suffix it is.
  let platformSuffix: string | null = null;
  if (!info.domain && info.isPrivate) {
    platformSuffix = info.publicSuffix;
    info = parseTld(ascii, ICANN_OPTIONS);
  }
  if (!info.domain || !info.publicSuffix) return fail(`is the public suffix ".${info.publicSuffix ?? tldLabel}" itself, not a registrable domain`);

  const registrableIndex = labelCount - (countDots(info.publicSuffix) + 1) - 1;
  for (let i = 0, start = 0; i < labelCount; i++) {
    const dot = ascii.indexOf(".", start);
    const end = dot < 0 ? ascii.length : dot;
    const problem = checkLabel(ascii, start, end, i >= registrableIndex);
    if (problem) return fail(problem);
    start = end + 1;
  }

  const idn = ascii.includes("xn--");
  let unicode = ascii;
  if (idn) {
    try {
      unicode = punycodeToUnicode(ascii);
    } catch {
      return fail("has an invalid punycode (xn--) label");
    }
  }
  const attributes: EntityAttributes = {
    unicode,
    idn,
    registered_domain: info.domain,
    public_suffix: info.publicSuffix,
    tld: tldLabel,
    subdomain: info.subdomain ? info.subdomain : null,
    private_suffix: info.isPrivate === true,
    labels: labelCount,
  };
  // Added last, in the place the spread of a literal put it, without copying the object (every check parses a host).
  if (platformSuffix) attributes.platform_suffix = platformSuffix;
  return { ok: true, host: { ascii, attributes } };
}

export function parseDomain(s: string): TypedParse {
  const r = parseHostName(s);
  if (!r.ok) return entityError(r.error.code, `This domain ${r.error.message}.`, "domain");
  return parsed(r.host.ascii, r.host.attributes);
}
