import { parseDomain } from "./domain.js";
import { parseEmail } from "./email.js";
import { looksLikeIpv6, looksLikeLooseIpv4, parseIpAddress, parseIpv4Strict } from "./ip.js";
import { normalizeText } from "./normalize.js";
import { looksLikePhone, parsePhone } from "./phone.js";
import { parseSocialAccount, socialPrefix } from "./social.js";
import { ENTITY_TYPES, entityError, type Entity, type EntityType, type ParseResult, type TypedParse } from "./types.js";
import { parseUrl } from "./url.js";
import { looksLikeWallet, parseWallet } from "./wallet.js";

/** Longest input we look at; a URL longer than this is not something a person pasted. */
export const MAX_ENTITY_INPUT = 4096;

const PARSERS: Readonly<Record<EntityType, (s: string) => TypedParse>> = {
  domain: parseDomain,
  url: parseUrl,
  wallet: parseWallet,
  email: parseEmail,
  ip_address: parseIpAddress,
  phone: parsePhone,
  social_account: parseSocialAccount,
};

export interface ParseOptions {
  /** An explicit type: the value must be of this type, or the answer is `entity.type_mismatch`. */
  readonly type?: EntityType | string;
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]{0,30}:\/\//i;
/** Schemes without "//" that still make a string a (non-web) URL. */
const OPAQUE_SCHEME = /^(?:javascript|data|vbscript|file|blob|about):/i;
/** IDNA treats these as dots too (ideographic and full-width full stops). */
const hasDot = (s: string): boolean => s.includes(".") || s.includes("\u3002") || s.includes("\uff0e") || s.includes("\uff61");
const WHITESPACE = /\s/;
const EVM_ATTEMPT = /^0x[0-9a-z]*$/i;

/**
 * Which type a (trimmed, normalised) string is, in a fixed order that settles every overlap:
 *  1. explicit prefixes: `mailto:` → email, `tel:` → phone, `x:`/`instagram:`/… → social_account;
 *  2. `scheme://` → url;
 *  3. `+` and digits → phone;
 *  4. wallet shapes (0x+40 hex, bech32, base58 with digits and mixed case) → wallet; so is any
 *     undotted `0x…` (a broken Ethereum address; `0x7f000001` is not taken for an IPv4 address);
 *  5. `user@host` with nothing after the host → email; `a@b/…` is URL userinfo → url;
 *  6. numeric dotted forms → ip_address (strict quads parse; loose spellings are refused as ambiguous), IPv6 → ip_address;
 *  7. a host followed by a path, query or port → url (scheme taken as https);
 *  8. otherwise → domain.
 * Domains never end in a number, so `1.2.3.4` can only be an IP; base58 wallets never contain
 * dots, so they cannot collide with domains.
 */
export function detectType(s: string): EntityType | null {
  const colon = s.indexOf(":");
  if (colon > 0) {
    const lower = s.slice(0, 8).toLowerCase();
    if (lower.startsWith("mailto:")) return "email";
    if (lower.startsWith("tel:")) return "phone";
    const scheme = HAS_SCHEME.test(s);
    if (!scheme && socialPrefix(s)) return "social_account";
    if (scheme || OPAQUE_SCHEME.test(s)) return "url";
  }
  if (s.startsWith("+") && looksLikePhone(s)) return "phone";
  if (WHITESPACE.test(s)) return null;
  // `0x` and letters or digits, no dot: a pasted or truncated Ethereum address far more often
  // than the hex-integer spelling of an IPv4 address, so the error speaks of the address.
  if (looksLikeWallet(s) || EVM_ATTEMPT.test(s)) return "wallet";
  const at = s.indexOf("@");
  if (at === 0) return hasDot(s) ? "email" : null;
  if (at > 0) return /[/?#]/.test(s.slice(at)) ? "url" : "email";
  const c0 = s.charCodeAt(0);
  if (c0 >= 0x30 && c0 <= 0x39 && (parseIpv4Strict(s) || looksLikeLooseIpv4(s))) return "ip_address";
  if (colon >= 0 && looksLikeIpv6(s)) return "ip_address";
  const pathAt = s.search(/[/?#]/);
  if (s.startsWith("//") || (pathAt > 0 && hasDot(s.slice(0, pathAt))) || (colon > 0 && /^[^:]+:\d+$/.test(s) && hasDot(s))) return "url";
  if (hasDot(s)) return "domain";
  return null;
}

/** Detects and parses an already normalised, trimmed string; null when no type fits. */
export function parseDetected(s: string): { type: EntityType; result: TypedParse } | null {
  const type = detectType(s);
  return type ? { type, result: PARSERS[type](s) } : null;
}

function build(type: EntityType, input: string, r: TypedParse, extra: { hidden: readonly string[]; bidi: boolean; defanged: boolean }): ParseResult {
  if (!r.ok) return r;
  // Every parser makes a fresh attributes object; it is copied only when something is added.
  const attributes = extra.hidden.length > 0 || extra.defanged ? { ...r.attributes } : r.attributes;
  if (extra.hidden.length > 0) {
    attributes.hidden_characters = [...extra.hidden];
    if (extra.bidi) attributes.bidi_controls = true;
  }
  if (extra.defanged) attributes.defanged = true;
  const entity: Entity = { type, value: r.value, id: `${type}:${r.value}`, input, attributes };
  return { ok: true, entity };
}

/**
 * Turns what a person pasted into a canonical entity, or a typed error with a stable code.
 * Never throws, whatever it is given.
 */
export function parseEntity(input: unknown, options: ParseOptions = {}): ParseResult {
  if (typeof input !== "string") return entityError("entity.invalid_input", "The entity must be a string.");
  const wanted = options.type;
  if (wanted !== undefined && !(ENTITY_TYPES as readonly string[]).includes(wanted)) {
    return entityError("entity.unknown_type", `Unknown type "${String(wanted)}"; use one of ${ENTITY_TYPES.join(", ")}.`);
  }
  const explicit = wanted as EntityType | undefined;
  if (input.length > MAX_ENTITY_INPUT) {
    return entityError("entity.too_long", `The entity is longer than ${MAX_ENTITY_INPUT} characters.`, explicit);
  }
  const norm = normalizeText(input);
  const s = norm.text.trim();
  if (s.length === 0) return entityError("entity.empty", "The entity is empty.", explicit);
  if (hasControlCharacter(s)) {
    return entityError("entity.invalid", "The entity contains control characters.", explicit);
  }
  const detected = detectType(s);
  if (explicit) {
    const r = PARSERS[explicit](s);
    if (r.ok) return build(explicit, input, r, norm);
    if (detected && detected !== explicit && PARSERS[detected](s).ok) {
      return entityError("entity.type_mismatch", `This looks like ${LABELS[detected]}, not ${LABELS[explicit]}.`, explicit);
    }
    return r;
  }
  if (!detected) {
    return entityError(
      "entity.unrecognized",
      "Not recognised as a domain, URL, wallet address, e-mail, IPv4 address, phone number (+country code) or social account (platform:handle).",
    );
  }
  return build(detected, input, PARSERS[detected](s), norm);
}

function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return true;
  }
  return false;
}

const LABELS: Readonly<Record<EntityType, string>> = {
  domain: "a domain", url: "a URL", wallet: "a wallet address", email: "an e-mail address",
  ip_address: "an IP address", phone: "a phone number", social_account: "a social account",
};
