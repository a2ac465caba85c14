import { createPublicKey, verify, type KeyObject } from "node:crypto";
import type { Clock } from "@svc/bot-kernel";
import { Hono } from "hono";

/** SPKI DER header of an Ed25519 public key: the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export function ed25519PublicKey(hex: string): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, "hex")]), format: "der", type: "spki" });
}

/** How far a request's timestamp may be from now, either way. */
export const SIGNATURE_WINDOW_SECONDS = 300;
/** Signatures remembered to refuse replays inside the window (oldest dropped first). */
const MAX_REMEMBERED = 50_000;

export interface InteractionsEndpointOptions {
  /** The application's public key (hex, from the Developer Portal). */
  readonly publicKey: string;
  readonly path: string;
  readonly clock: Clock;
  /** The verified interaction; answers the HTTP response body. */
  readonly handle: (interaction: { readonly type: number } & Record<string, unknown>) => Promise<Record<string, unknown>>;
}

/**
 * The HTTP interactions endpoint. Discord signs `timestamp + body` with the application's
 * Ed25519 key; anything unsigned, badly signed, outside the time window or seen before is
 * refused with 401 before the body is parsed (Discord itself probes with bad signatures when
 * the URL is saved, and expects exactly that).
 */
export function createInteractionsEndpoint(o: InteractionsEndpointOptions): Hono {
  const key = ed25519PublicKey(o.publicKey);
  const seen = new Map<string, number>();
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.post(o.path, async (c) => {
    const signature = c.req.header("X-Signature-Ed25519") ?? "";
    const timestamp = c.req.header("X-Signature-Timestamp") ?? "";
    const body = await c.req.text();
    const now = Math.floor(o.clock.now().getTime() / 1000);
    const unauthorized = (why: string) => c.json({ error: "unauthorized", reason: why }, 401);
    if (!/^[0-9a-f]{128}$/iu.test(signature) || !/^\d{1,12}$/u.test(timestamp)) return unauthorized("missing or malformed signature headers");
    if (Math.abs(now - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return unauthorized("timestamp outside the allowed window");
    if (!verify(null, Buffer.from(timestamp + body, "utf8"), key, Buffer.from(signature, "hex"))) return unauthorized("bad signature");
    const sig = signature.toLowerCase();
    if (seen.has(sig)) return unauthorized("replayed request");
    seen.set(sig, Number(timestamp));
    for (const [s, ts] of seen) {
      if (seen.size <= MAX_REMEMBERED && now - ts <= SIGNATURE_WINDOW_SECONDS) break;
      seen.delete(s);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return c.json({ error: "bad_request" }, 400);
    }
    if (typeof payload !== "object" || payload === null || typeof (payload as { type?: unknown }).type !== "number") return c.json({ error: "bad_request" }, 400);
    return c.json(await o.handle(payload as { type: number } & Record<string, unknown>));
  });
  return app;
}
