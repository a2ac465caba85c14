import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SvcApiError, SvcClient, SvcUnreachableError, retryDelay } from "./client.js";

/** A tiny real HTTP server on 127.0.0.1 that plays the API's wire format for the client's edge cases. */
let server: Server;
let base = "";
const seen: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let busyLeft = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url === "/v1/screen" && req.headers["x-api-key"] === "svc_live_spent") {
        // A used-up month: the wait it asks for is weeks.
        res.writeHead(429, { "content-type": "application/problem+json", "retry-after": "333238" });
        return res.end(JSON.stringify({ type: "x", title: "Monthly quota used up", status: 429, detail: "The free plan includes 1000 checks a month and 0 are left; this request costs 1. Upgrade the plan or wait for the next month.", code: "quota_exceeded", request_id: "r3", retryable: true }));
      }
      if (req.url?.startsWith("/v1/screen") && busyLeft > 0) {
        busyLeft--;
        res.writeHead(429, { "content-type": "application/problem+json", "retry-after": "0" });
        return res.end(JSON.stringify({ type: "x", title: "slow down", status: 429, detail: "rate limited", code: "rate_limited", request_id: "r1", retryable: true }));
      }
      if (req.headers["x-api-key"] !== "svc_live_good") {
        res.writeHead(401, { "content-type": "application/problem+json" });
        return res.end(JSON.stringify({ type: "x", title: "Unauthorized", status: 401, detail: "The API key is not valid.", code: "auth.invalid_key", request_id: "r2", retryable: false }));
      }
      if (req.url === "/v1/boom") {
        res.writeHead(502, { "content-type": "text/html" });
        return res.end("<html>bad gateway</html>");
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "chk_1", echo: body ? JSON.parse(body) : null, url: req.url }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("SvcClient", () => {
  it("sends the key, JSON body and idempotency key", async () => {
    const c = new SvcClient({ baseUrl: `${base}/`, apiKey: "svc_live_good" });
    const r = (await c.screen({ entity_value: "paypa1.com" }, { idempotencyKey: "k1" })) as unknown as { echo: unknown };
    expect(r.echo).toEqual({ entity_value: "paypa1.com" });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: "POST", url: "/v1/screen" });
    expect(last.headers["idempotency-key"]).toBe("k1");
    expect(last.headers["content-type"]).toBe("application/json");
  });

  it("encodes path parameters and query strings", async () => {
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_good" });
    await c.graph("url", "https://x.com/a?b=1", { depth: 2 });
    expect(seen.at(-1)!.url).toBe("/v1/graph/url/https%3A%2F%2Fx.com%2Fa%3Fb%3D1?depth=2");
  });

  it("keys: create, list and revoke on /v1/keys, with the operator's account_id", async () => {
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_good" });
    const created = (await c.createKey({ new_account: "Acme", plan: "starter", name: "ci" })) as unknown as { echo: unknown };
    expect(created.echo).toEqual({ new_account: "Acme", plan: "starter", name: "ci" });
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/v1/keys" });
    await c.listKeys({ accountId: "acc_1" }).catch(() => null);
    expect(seen.at(-1)).toMatchObject({ method: "GET", url: "/v1/keys?account_id=acc_1" });
    await c.revokeKey("key_a/b");
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", url: "/v1/keys/key_a%2Fb" });
  });

  it("moderation: lists with filters, confirms and rejects by encoded id with a JSON body", async () => {
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_good" });
    await c.reports({ status: "unverified", entity: "paypa1.com", limit: 10 });
    expect(seen.at(-1)).toMatchObject({ method: "GET", url: "/v1/reports?status=unverified&entity=paypa1.com&limit=10", body: "" });
    await c.confirmReport("rep_1/x");
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/v1/reports/rep_1%2Fx/confirm", body: "{}" });
    await c.rejectReport("rep_2", { reason: "spam" });
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/v1/reports/rep_2/reject", body: JSON.stringify({ reason: "spam" }) });
  });

  it("retries 429 honouring Retry-After, then succeeds", async () => {
    const waits: number[] = [];
    busyLeft = 2;
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_good", sleep: async (ms) => void waits.push(ms) });
    await c.screen({ entity_value: "a.com" });
    expect(waits).toEqual([0, 0]);
  });

  it("gives up after maxRetries with the typed problem", async () => {
    busyLeft = 5;
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_good", maxRetries: 1, sleep: async () => {} });
    await expect(c.screen({ entity_value: "a.com" })).rejects.toMatchObject({ name: "SvcApiError", status: 429, code: "rate_limited" });
    busyLeft = 0;
  });

  it("does not retry an answer that asks for a longer wait than it would wait (a used-up month)", async () => {
    const waits: number[] = [];
    const before = seen.length;
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_spent", maxRetries: 10, maxRetryDelayMs: 61_000, sleep: async (ms) => void waits.push(ms) });
    await expect(c.screen({ entity_value: "a.com" })).rejects.toMatchObject({ name: "SvcApiError", status: 429, code: "quota_exceeded" });
    expect(waits).toEqual([]);
    expect(seen.length - before).toBe(1);
  });

  it("raises problem+json as SvcApiError with the stable code", async () => {
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_wrong" });
    const err = await c.history().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcApiError);
    expect(err).toMatchObject({ status: 401, code: "auth.invalid_key" });
  });

  it("describes a non-problem error body", async () => {
    const c = new SvcClient({ baseUrl: base, apiKey: "svc_live_good" });
    const err = (await (c as unknown as { json: (m: string, p: string) => Promise<unknown> }).json("GET", "/v1/boom").catch((e: unknown) => e)) as SvcApiError;
    expect(err.code).toBe("http.502");
    expect(err.problem.detail).toContain("bad gateway");
  });

  it("reports an unreachable server clearly", async () => {
    const c = new SvcClient({ baseUrl: "http://127.0.0.1:1", apiKey: "svc_live_good", maxRetries: 0 });
    await expect(c.screen({ entity_value: "a.com" })).rejects.toBeInstanceOf(SvcUnreachableError);
  });

  it("computes retry delays from seconds, dates and back-off, capped", () => {
    expect(retryDelay("2", 0, 60_000)).toBe(2000);
    expect(retryDelay(null, 3, 60_000)).toBe(4000);
    expect(retryDelay("999", 0, 10_000)).toBe(10_000);
    expect(retryDelay(new Date(Date.now() - 5000).toUTCString(), 0, 10_000)).toBe(0);
  });
});
