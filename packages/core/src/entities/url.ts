import { parseHostName } from "./domain.js";
import { parseIpv4Strict } from "./ip.js";
import { socialAccountOfUrl } from "./social.js";
import { entityError, parsed, type EntityAttributes, type TypedParse } from "./types.js";

const SCHEME = /^([a-z][a-z0-9+.-]{0,30}):/i;
const WEB_SCHEMES = new Set(["http", "https"]);

/** The host exactly as written in the input (between `//`, userinfo and port), for spotting disguised IPs. */
function writtenHost(s: string): string {
  const start = s.indexOf("//");
  let rest = start >= 0 ? s.slice(start + 2) : s;
  const end = rest.search(/[/?#\\]/);
  if (end >= 0) rest = rest.slice(0, end);
  const at = rest.lastIndexOf("@");
  if (at >= 0) rest = rest.slice(at + 1);
  if (rest.startsWith("[")) return rest.slice(0, rest.indexOf("]") + 1);
  const colon = rest.lastIndexOf(":");
  return (colon >= 0 ? rest.slice(0, colon) : rest).toLowerCase();
}

/**
 * URLs are read the way a browser reads them (WHATWG URL), because the browser is where the
 * victim ends up: scheme and host lower-cased, IDNA applied, default port dropped, numeric
 * host spellings resolved. The path and query stay; the fragment and any password are dropped
 * from the canonical value (they never reach the server, and often carry personal data) and
 * only noted in the attributes. A missing scheme is taken as https and recorded.
 */
export function parseUrl(raw: string): TypedParse {
  let s = raw;
  let schemeInferred = false;
  const scheme = SCHEME.exec(s)?.[1]?.toLowerCase();
  if (scheme === undefined || (!WEB_SCHEMES.has(scheme) && !s.slice(scheme.length + 1).startsWith("//") && /^\d/.test(s.slice(scheme.length + 1)))) {
    // No scheme (or "host:port/..."), so it is written like "example.com/path".
    s = `https://${s.startsWith("//") ? s.slice(2) : s}`;
    schemeInferred = true;
  } else if (!WEB_SCHEMES.has(scheme)) {
    return entityError("entity.unsupported", `Only http and https URLs are screened; this one uses "${scheme}:".`, "url");
  }
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return entityError("entity.invalid", "This URL cannot be parsed (a browser would refuse it too).", "url");
  }
  if (!WEB_SCHEMES.has(url.protocol.slice(0, -1))) {
    return entityError("entity.unsupported", `Only http and https URLs are screened.`, "url");
  }

  const attributes: EntityAttributes = {
    scheme: url.protocol.slice(0, -1),
    scheme_inferred: schemeInferred,
    host: url.hostname,
    port: url.port === "" ? null : Number(url.port),
    path: url.pathname,
    has_query: url.search.length > 1,
    userinfo: url.username === "" ? null : decodeSafely(url.username),
    has_password: url.password !== "",
    has_fragment: url.hash.length > 1,
    ip_literal: null,
  };

  const host = url.hostname;
  if (host.startsWith("[")) {
    attributes.ip_literal = host;
    attributes.ip_version = 6;
  } else if (parseIpv4Strict(host)) {
    attributes.ip_literal = host;
    attributes.ip_version = 4;
    const written = writtenHost(raw);
    if (written !== host) attributes.ip_obfuscated = written;
  } else {
    const h = parseHostName(host);
    if (!h.ok) return entityError("entity.invalid", `The host of this URL ${h.error.message}.`, "url");
    Object.assign(attributes, h.host.attributes);
    const account = socialAccountOfUrl(host, url.pathname);
    if (account) attributes.social_account = account;
  }

  url.password = "";
  url.hash = "";
  return parsed(url.href, attributes);
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
