import { createHmac, timingSafeEqual } from "node:crypto";
import { problem } from "./problem.js";

/**
 * Keyset cursors of operator lists (reviews, support tickets): the last item's position, signed
 * with the server's cursor key and the list's name, so a client can neither forge positions nor
 * carry one list's cursor to another.
 */
export interface ListPosition {
  readonly at: string;
  readonly id: string;
}

export function sealCursor(list: string, pos: ListPosition, key: Uint8Array): string {
  const body = Buffer.from(JSON.stringify([pos.at, pos.id])).toString("base64url");
  return `${body}.${createHmac("sha256", key).update(`${list}:${body}`).digest("base64url")}`;
}

export function openCursor(list: string, cursor: string, key: Uint8Array): ListPosition {
  const [body, mac] = cursor.split(".");
  const want = body ? createHmac("sha256", key).update(`${list}:${body}`).digest() : null;
  const got = mac ? Buffer.from(mac, "base64url") : null;
  if (!body || !want || !got || got.length !== want.length || !timingSafeEqual(got, want)) {
    throw problem({ status: 422, code: "request.invalid_cursor", title: "Invalid cursor", detail: "This cursor was not issued by this API, or it was modified; start from the first page." });
  }
  const [at, id] = JSON.parse(Buffer.from(body, "base64url").toString()) as [string, string];
  return { at, id };
}
