// The API's log stream under requests that carry secrets: every line of a request has its
// request id, and no credential — header, key, cookie, Stripe or bot secret — is ever written.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHmac } from "node:crypto";
import { Writable } from "node:stream";
import { createLogger, loadConfig } from "@svc/runtime";
import { subscriptionObject } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "./app.js";
import { bootstrapAdmin } from "./bootstrap.js";
import { buildRuntime, type Runtime } from "./container.js";
import { TEST_AUDIT_KEY } from "./test-support.js";

const STRIPE_KEY = "sk_test_51SecretStripeKeyThatMustNotBeLogged";
const STRIPE_WEBHOOK = "whsec_SecretWebhookSigningValue0123456789";
const COOKIE = "svc_session=cookie-secret-4d1f7c2b9a8e6f5d3c1b0a9e8d7c6b5a";
const BOGUS_KEY = "svc_live_NotAKeyButStillASecretValue0123456789abcdef";
const BOT_TOKEN = "123456789:AAFakeTelegramBotTokenThatMustNotLeak_x";
const ORIGIN = "http://app.test";

describe("the API's logs", () => {
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  let key: string;
  const lines: Record<string, unknown>[] = [];
  let raw = "";

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        raw += chunk.toString();
        for (const l of chunk.toString().split("\n").filter((x) => x.length > 0)) lines.push(JSON.parse(l) as Record<string, unknown>);
        cb();
      },
    });
    const config = loadConfig({
      SVC_DATA_DIR: "memory://", LOG_LEVEL: "trace", SVC_AUDIT_KEY: TEST_AUDIT_KEY, SVC_PUBLIC_URL: ORIGIN,
      SVC_STRIPE_SECRET_KEY: STRIPE_KEY, SVC_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK,
      SVC_STRIPE_PRICE_STARTER: "price_starter1", SVC_STRIPE_PRICE_PRO: "price_pro1", SVC_STRIPE_API_URL: "http://127.0.0.1:9",
    });
    runtime = await buildRuntime(config, { logger: createLogger("trace", { app: "api", destination: sink }) });
    app = createApp(runtime.services);
    key = (await bootstrapAdmin(runtime.services, undefined)).key as string;
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const secrets = (): string[] => [key, STRIPE_KEY, STRIPE_WEBHOOK, COOKIE.split("=")[1] as string, BOGUS_KEY, BOT_TOKEN, TEST_AUDIT_KEY];

  it("writes each request's id in every line of that request, and no secret it carried", async () => {
    // A correctly signed Stripe event about a customer this server does not know: billing logs it.
    const at = Math.floor(Date.now() / 1000);
    const event = JSON.stringify({ id: "evt_logged_0001", object: "event", created: at, livemode: false, type: "customer.subscription.updated", data: { object: subscriptionObject({ id: "sub_logged_0001", customer: "cus_unknown_0001", price: "price_pro1", status: "active", periodEnd: at + 86_400 }) } });
    const signed = `t=${at},v1=${createHmac("sha256", STRIPE_WEBHOOK).update(`${at}.${event}`).digest("hex")}`;
    const sent: { id: string; init: RequestInit; path: string }[] = [
      // A check with the key as a bearer token, and a cookie.
      { id: "req-test-screen-0001", path: "/v1/screen", init: { method: "POST", headers: { authorization: `Bearer ${key}`, cookie: COOKIE, "content-type": "application/json" }, body: JSON.stringify({ entity_value: "paypa1.com" }) } },
      // A wrong key in X-API-Key (401).
      { id: "req-test-badkey-0002", path: "/v1/screen", init: { method: "POST", headers: { "x-api-key": BOGUS_KEY, "content-type": "application/json" }, body: "{}" } },
      // A Stripe webhook with a forged signature (400).
      { id: "req-test-stripe-0003", path: "/v1/billing/webhook", init: { method: "POST", headers: { "stripe-signature": `t=1,v1=${STRIPE_WEBHOOK}`, "content-type": "application/json" }, body: JSON.stringify({ token: BOT_TOKEN }) } },
      { id: "req-test-stripe-0006", path: "/v1/billing/webhook", init: { method: "POST", headers: { "stripe-signature": signed, "content-type": "application/json" }, body: event } },
      // An unknown route with a bot token in the query string's place of a header.
      { id: "req-test-missing-0004", path: "/nowhere", init: { headers: { "x-telegram-bot-api-secret-token": BOT_TOKEN } } },
      // A sign-up with no SMTP server: the mailer's warning is a line of this request too.
      { id: "req-test-signup-0005", path: `${ORIGIN}/auth/signup`, init: { method: "POST", headers: { origin: ORIGIN, "sec-fetch-site": "same-origin", "content-type": "application/json" }, body: JSON.stringify({ email: "logged-signup@example.com", password: "correct horse battery" }) } },
    ];
    // No per-request AsyncLocalStorage: on Node 20 its promise hooks tax every promise of the
    // process (decision 0110). Whatever would enter one while these requests are served is caught.
    const entered = [vi.spyOn(AsyncLocalStorage.prototype, "run"), vi.spyOn(AsyncLocalStorage.prototype, "enterWith")];
    try {
      for (const r of sent) {
        const first = lines.length;
        const res = await app.request(r.path, { ...r.init, headers: { ...(r.init.headers as Record<string, string>), "x-request-id": r.id } });
        expect(res.headers.get("x-request-id")).toBe(r.id);
        await res.arrayBuffer();
        await runtime.services.background.drain();
        // One request at a time: every line written meanwhile is this request's, and says so.
        const mine = lines.slice(first);
        expect(mine.some((l) => l.msg === "request"), r.id).toBe(true);
        expect(mine.map((l) => [l.msg, l.request_id])).toEqual(mine.map((l) => [l.msg, r.id]));
      }
      // Lines written deep in a service on the request's behalf carry its id too.
      const ids = (msg: string) => lines.filter((l) => l.msg === msg).map((l) => l.request_id);
      expect(ids("e-mail not sent: set SVC_SMTP_URL to send account e-mails")).toEqual(["req-test-signup-0005"]);
      expect(ids("stripe subscription of an unknown customer ignored")).toEqual(["req-test-stripe-0006"]);
      expect(ids("stripe event applied")).toEqual(["req-test-stripe-0006"]);
      for (const spy of entered) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of entered) spy.mockRestore();
    }
    // Without a usable id, one is made, echoed and logged.
    const first = lines.length;
    const res = await app.request("/healthz", { headers: { "x-request-id": "bad id" } });
    const made = res.headers.get("x-request-id");
    expect(made).toMatch(/^req_/u);
    expect(lines.slice(first).map((l) => l.request_id)).toEqual([made]);
    // A passing probe is a debug line (pino's 20), so an orchestrator's probes stay out of an info log.
    expect(lines.slice(first).map((l) => l.level)).toEqual([20]);
    for (const s of secrets()) expect(raw, "a secret in the log").not.toContain(s);
  });

  it("redacts secrets a log call is handed directly: headers, fields and settings", () => {
    const before = raw.length;
    const log = runtime.services.logger;
    log.info({ req: { headers: { authorization: `Bearer ${key}`, cookie: COOKIE, "x-api-key": BOGUS_KEY, "stripe-signature": STRIPE_WEBHOOK } } }, "a request as a framework would log it");
    log.info({ headers: { authorization: `Bearer ${key}`, "x-telegram-bot-api-secret-token": BOT_TOKEN } }, "headers alone");
    log.info({ apiKey: key, token: BOT_TOKEN, secret: STRIPE_WEBHOOK, nested: { password: "hunter2-hunter2-hunter2", botToken: BOT_TOKEN } }, "fields");
    log.info({ config: { SVC_STRIPE_SECRET_KEY: STRIPE_KEY, SVC_AUDIT_KEY: TEST_AUDIT_KEY, TELEGRAM_BOT_TOKEN: BOT_TOKEN } }, "settings");
    const written = raw.slice(before);
    expect(written.split("\n").filter((l) => l.length > 0)).toHaveLength(4);
    for (const s of [...secrets(), "hunter2-hunter2-hunter2"]) expect(written).not.toContain(s);
    expect(written.match(/\[redacted\]/gu)?.length).toBeGreaterThanOrEqual(13);
  });
});
