import { parseHostName } from "./domain.js";
import { entityError, parsed, type TypedParse } from "./types.js";

const MAX_LOCAL = 64;
const MAX_ADDRESS = 254;

/** RFC 5322 atext, plus any non-ASCII character (RFC 6531 internationalised mailboxes). */
function isLocalChar(c: number): boolean {
  if (c >= 0x80) return c !== 0xa0 && !(c >= 0x2000 && c <= 0x200a) && c !== 0x3000;
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) return true;
  return "!#$%&'*+/=?^_`{|}~-.".includes(String.fromCharCode(c));
}

/**
 * Local part + domain. The domain is canonicalised exactly like a domain entity; the local
 * part is lower-cased, because every large provider treats it case-insensitively and one
 * mailbox must have one id. Quoted local parts and address literals are refused: they do
 * not occur in scams we have seen and they complicate every consumer.
 */
export function parseEmail(raw: string): TypedParse {
  let s = raw;
  if (s.toLowerCase().startsWith("mailto:")) {
    s = s.slice(7);
    const q = s.indexOf("?");
    if (q >= 0) s = s.slice(0, q);
    try {
      s = decodeURIComponent(s);
    } catch {
      return entityError("entity.invalid", "This mailto: link is badly encoded.", "email");
    }
  }
  const at = s.lastIndexOf("@");
  if (at < 0) return entityError("entity.invalid", "An e-mail address needs an @ between the mailbox and the domain.", "email");
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (local.length === 0) return entityError("entity.invalid", "The part before the @ is empty.", "email");
  if (local.startsWith('"')) return entityError("entity.unsupported", "Quoted mailbox names are not supported.", "email");
  if (local.length > MAX_LOCAL) return entityError("entity.invalid", `The part before the @ is longer than ${MAX_LOCAL} characters.`, "email");
  if (local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return entityError("entity.invalid", "The part before the @ cannot start or end with a dot or have two dots in a row.", "email");
  }
  for (let i = 0; i < local.length; i++) {
    if (!isLocalChar(local.charCodeAt(i))) return entityError("entity.invalid", `The part before the @ contains "${local[i]}".`, "email");
  }
  if (domain.startsWith("[")) return entityError("entity.unsupported", "Addresses at an IP literal ([1.2.3.4]) are not supported.", "email");
  const host = parseHostName(domain);
  if (!host.ok) return entityError("entity.invalid", `The domain of this address ${host.error.message}.`, "email");
  const localLower = local.toLowerCase();
  const value = `${localLower}@${host.host.ascii}`;
  if (value.length > MAX_ADDRESS) return entityError("entity.invalid", `An e-mail address has at most ${MAX_ADDRESS} characters.`, "email");
  const plus = localLower.indexOf("+");
  return parsed(value, {
    local_part: localLower,
    domain: host.host.ascii,
    plus_tag: plus > 0 ? localLower.slice(plus + 1) : null,
    smtputf8: [...localLower].some((ch) => ch.charCodeAt(0) > 0x7f),
    ...host.host.attributes,
  });
}
