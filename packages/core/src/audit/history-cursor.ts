import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/** A position in an account's history: the last item of a page (newest first by created_at, then id). */
export interface HistoryPosition {
  readonly created_at: string;
  readonly id: string;
}

/** A cursor the store could not read (tampered, truncated, from another version). */
export class InvalidCursorError extends Error {
  readonly code = "history.invalid_cursor";
  constructor() {
    super("The cursor is not one this service issued");
    this.name = "InvalidCursorError";
  }
}

/** Opaque to clients; every store uses the same format so a cursor outlives a change of engine. */
export function encodeCursor(at: HistoryPosition): string {
  return bytesToHex(new TextEncoder().encode(JSON.stringify([at.created_at, at.id])));
}

export function decodeCursor(cursor: string): HistoryPosition {
  try {
    if (!/^(?:[0-9a-f]{2})+$/.test(cursor) || cursor.length > 2048) throw new InvalidCursorError();
    const v: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(hexToBytes(cursor)));
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== "string" || typeof v[1] !== "string") throw new InvalidCursorError();
    const at = new Date(v[0]);
    if (Number.isNaN(at.getTime())) throw new InvalidCursorError();
    return { created_at: at.toISOString(), id: v[1] };
  } catch {
    throw new InvalidCursorError();
  }
}

const MAC_BYTES = 16;
const SEALED = /^((?:[0-9a-f]{2})+)\.([\w-]{22})$/;

function cursorMac(raw: string, accountId: string, key: Uint8Array): Uint8Array {
  // The account is inside the MAC, so a cursor pages only the account it was issued to.
  return hmac(sha256, key, utf8ToBytes(`history-cursor\u0000${accountId}\u0000${raw}`)).subarray(0, MAC_BYTES);
}

const toBase64Url = (b: Uint8Array): string => {
  let s = "";
  for (const x of b) s += String.fromCharCode(x);
  const b64 = btoa(s);
  // btoa pads with at most two "=": cut them by position, not with a pattern.
  const end = b64.endsWith("==") ? b64.length - 2 : b64.endsWith("=") ? b64.length - 1 : b64.length;
  return b64.slice(0, end).replace(/\+/g, "-").replace(/\//g, "_");
};

/**
 * A store's cursor as handed to a client: `<cursor>.<MAC>`, an HMAC-SHA256 (128 bits) over the
 * cursor and the account id with a server key. A client cannot forge or edit a position, and a
 * cursor issued to one account is refused for another.
 */
export function sealCursor(raw: string, accountId: string, key: Uint8Array): string {
  return `${raw}.${toBase64Url(cursorMac(raw, accountId, key))}`;
}

/** The store's cursor inside a sealed one; `InvalidCursorError` when the MAC does not match this account and key. */
export function openCursor(sealed: string, accountId: string, key: Uint8Array): string {
  const m = sealed.length <= 4096 ? SEALED.exec(sealed) : null;
  if (!m) throw new InvalidCursorError();
  const raw = m[1] as string;
  const expected = toBase64Url(cursorMac(raw, accountId, key));
  // Constant time over the MAC text: no early exit tells an attacker how much was right.
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (m[2] as string).charCodeAt(i);
  if (diff !== 0) throw new InvalidCursorError();
  return raw;
}
