import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signedHeaders } from "./signing.js";

type Verify = (secret: string, headers: Record<string, string>, rawBody: string, toleranceSeconds?: number) => boolean;

/** The `node:crypto` verifier printed in docs/webhooks.md, run as printed (its import supplied). */
function documentedVerifier(): Verify {
  const doc = readFileSync(new URL("../../../../docs/webhooks.md", import.meta.url), "utf8");
  const block = /<!-- verify-node-crypto -->\s*```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/webhooks.md lost its node:crypto example");
  const body = block.replace(/^import .*$/m, "").replace(/^export /m, "");
  return new Function("createHmac", "timingSafeEqual", `${body}\nreturn verifySvcWebhook;`)(createHmac, timingSafeEqual) as Verify;
}

describe("docs/webhooks.md: verifying with plain node:crypto", () => {
  const verify = documentedVerifier();
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: "screen.completed", data: { job_id: "job_1", text: "é ✓" } });

  it("accepts our signature, and either secret during a rotation", () => {
    expect(verify(secret, { ...signedHeaders([secret], "msg_1", new Date(), body) }, body)).toBe(true);
    const next = generateWebhookSecret();
    const both = { ...signedHeaders([next, secret], "msg_1", new Date(), body) };
    expect(verify(secret, both, body)).toBe(true);
    expect(verify(next, both, body)).toBe(true);
  });

  it("rejects a changed body, another id, another secret, a stale timestamp, missing headers", () => {
    const h = { ...signedHeaders([secret], "msg_1", new Date(), body) };
    expect(verify(secret, h, body.replace("job_1", "job_2"))).toBe(false);
    expect(verify(secret, { ...h, "webhook-id": "msg_2" }, body)).toBe(false);
    expect(verify(generateWebhookSecret(), h, body)).toBe(false);
    expect(verify(secret, { ...signedHeaders([secret], "msg_1", new Date(Date.now() - 301_000), body) }, body)).toBe(false);
    expect(verify(secret, { "webhook-id": "msg_1" }, body)).toBe(false);
    expect(verify(secret, { ...h, "webhook-signature": h["webhook-signature"].slice(3) }, body)).toBe(false);
  });
});
