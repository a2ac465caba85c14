import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks signatures (v1.0.0): `v1,` + base64 HMAC-SHA256 over
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of a `whsec_`
 * secret. Several signatures are separated by spaces (rotation: old and new secret both sign).
 */
export const SECRET_PREFIX = "whsec_";

/** 32 random bytes (the spec asks for at least 24). */
export const generateWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;

const keyOf = (secret: string): Buffer => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The `webhook-signature` header: one signature per signing secret. */
export const signatureHeader = (secrets: readonly string[], id: string, timestampSeconds: number, body: string): string =>
  secrets.map((s) => signWebhook(s, id, timestampSeconds, body)).join(" ");

export interface SignedHeaders {
  readonly "webhook-id": string;
  readonly "webhook-timestamp": string;
  readonly "webhook-signature": string;
}

export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  const ts = Math.floor(at.getTime() / 1000);
  return { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": signatureHeader(secrets, id, ts, body) };
}

/**
 * What a receiver does (documented in docs/webhooks.md): constant-time comparison against every
 * listed v1 signature, and a timestamp within `toleranceSeconds` of now.
 */
export function verifyWebhook(secret: string, headers: Record<string, string | undefined>, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sigs = headers["webhook-signature"];
  if (!id || !ts || !sigs || !/^\d+$/.test(ts)) return false;
  if (Math.abs(nowSeconds - Number(ts)) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, id, Number(ts), body));
  return sigs.split(" ").some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
