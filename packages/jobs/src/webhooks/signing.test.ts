import { fc, test } from "@fast-check/vitest";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signatureHeader, signedHeaders, signWebhook, verifyWebhook } from "./signing.js";

const secret = generateWebhookSecret();
const other = generateWebhookSecret();
const at = new Date("2026-11-01T12:00:00Z");
const nowS = Math.floor(at.getTime() / 1000);

/** The reference verifier checks against the real clock; its tolerance is 5 minutes. */
const verifyRef = (s: string, headers: Record<string, string>, body: string | Buffer): boolean => {
  try {
    new Webhook(s).verify(body, headers);
    return true;
  } catch {
    return false;
  }
};

describe("Standard Webhooks signatures", () => {
  it("makes whsec_ secrets of 32 random bytes", () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(secret).not.toBe(other);
  });

  it("signs v1,<base64 HMAC-SHA256 of id.timestamp.body>", () => {
    const sig = signWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    // The example of the Standard Webhooks specification.
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  test.prop([fc.string({ maxLength: 2000 }), fc.stringMatching(/^msg_[0-9a-z]{26}$/)], { numRuns: 1000 })(
    "every signature verifies with the reference verifier (standardwebhooks)",
    (payload, id) => {
      const body = JSON.stringify({ type: "screen.completed", data: { payload } });
      const headers = signedHeaders([secret], id, new Date(), body);
      expect(verifyRef(secret, { ...headers }, body)).toBe(true);
      expect(verifyWebhook(secret, { ...headers }, body, Math.floor(Date.now() / 1000))).toBe(true);
    },
  );

  test.prop([fc.string({ minLength: 1, maxLength: 500 }), fc.nat(), fc.integer({ min: 1, max: 255 })], { numRuns: 1000 })(
    "a single flipped byte of the body is rejected",
    (payload, pos, flip) => {
      const body = JSON.stringify({ payload });
      const headers = signedHeaders([secret], "msg_x", new Date(), body);
      const bytes = Buffer.from(body);
      const i = pos % bytes.length;
      bytes[i] = (bytes[i] as number) ^ flip;
      // The raw bytes, as a receiver must verify them.
      expect(verifyRef(secret, { ...headers }, bytes)).toBe(false);
      expect(verifyWebhook(secret, { ...headers }, bytes.toString("latin1"), Math.floor(Date.now() / 1000))).toBe(false);
    },
  );

  it.each([301, -301, 3600, -86_400])("a timestamp %i s off is rejected", (skew) => {
    const body = '{"type":"screen.completed"}';
    const headers = signedHeaders([secret], "msg_1", new Date(Date.now() + skew * 1000), body);
    expect(verifyRef(secret, { ...headers }, body)).toBe(false);
    expect(verifyWebhook(secret, { ...headers }, body, Math.floor(Date.now() / 1000))).toBe(false);
  });

  it("accepts 299 s of skew either way", () => {
    const body = "{}";
    for (const skew of [299, -299]) {
      const headers = signedHeaders([secret], "msg_1", new Date(Date.now() + skew * 1000), body);
      expect(verifyRef(secret, { ...headers }, body)).toBe(true);
    }
  });

  it("rejects a signature without its v1, prefix, another id, or another secret", () => {
    const body = "{}";
    const h = signedHeaders([secret], "msg_1", new Date(), body);
    expect(verifyRef(secret, { ...h, "webhook-signature": h["webhook-signature"].slice(3) }, body)).toBe(false);
    expect(verifyRef(secret, { ...h, "webhook-id": "msg_2" }, body)).toBe(false);
    expect(verifyRef(other, { ...h }, body)).toBe(false);
    expect(verifyWebhook(other, { ...h }, body, nowS)).toBe(false);
  });

  it("during a rotation both secrets sign: receivers holding either one verify", () => {
    const body = '{"type":"screen.completed"}';
    const h = signedHeaders([other, secret], "msg_1", new Date(), body);
    expect(h["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifyRef(secret, { ...h }, body)).toBe(true);
    expect(verifyRef(other, { ...h }, body)).toBe(true);
    expect(verifyRef(generateWebhookSecret(), { ...h }, body)).toBe(false);
    expect(signatureHeader([secret], "msg_1", nowS, body)).toBe(signWebhook(secret, "msg_1", nowS, body));
  });
});
