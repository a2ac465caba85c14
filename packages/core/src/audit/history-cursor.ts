import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

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
