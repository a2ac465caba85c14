import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * API keys: `svc_live_` + 32 base62 characters of randomness + a 6-character base62 checksum of
 * them. The fixed prefix lets secret scanners find leaked keys; the checksum rejects typos and
 * junk without a database lookup. Only the SHA-256 of a key is ever stored.
 */
export const API_KEY_PREFIX = "svc_live_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY = 32;
const CHECK = 6;
const KEY_RE = /^svc_live_[0-9A-Za-z]{38}$/;

function checksum(body: string): string {
  const h = sha256(utf8ToBytes(`${API_KEY_PREFIX}${body}`));
  let n = 0n;
  for (let i = 0; i < 8; i++) n = (n << 8n) | BigInt(h[i] as number);
  let out = "";
  for (let i = 0; i < CHECK; i++) {
    out = (BASE62[Number(n % 62n)] as string) + out;
    n /= 62n;
  }
  return out;
}

/** A new key from caller-supplied random bytes (≥ 32; the core has no randomness of its own). */
export function formatApiKey(random: Uint8Array): string {
  if (random.length < BODY) throw new RangeError(`need at least ${BODY} random bytes`);
  let body = "";
  // 62 does not divide 256: rejection would need more bytes; the bias of b % 62 is < 2 % per character and irrelevant for 190 bits.
  for (let i = 0; i < BODY; i++) body += BASE62[(random[i] as number) % 62];
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** Well-formed with a matching checksum: worth looking up. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_RE.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY);
  return key.endsWith(checksum(body));
}

export const hashApiKey = (key: string): string => bytesToHex(sha256(utf8ToBytes(key)));

/** The part shown in listings (`svc_live_AbC1…`), never enough to use. */
export const apiKeyHint = (key: string): string => `${key.slice(0, API_KEY_PREFIX.length + 4)}…`;

/** A deterministic key from a bootstrap secret (SVC_BOOTSTRAP_KEY), so automation knows the first key. */
export function apiKeyFromSecret(secret: string): string {
  return formatApiKey(sha256(utf8ToBytes(`svc-bootstrap:${secret}`)));
}
