// `svc billing refund --url`: the operator's refund against the real API on 127.0.0.1, which
// talks to a fake Stripe (also on 127.0.0.1) speaking Stripe's wire format.
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { apiKeyHint, formatApiKey, hashApiKey } from "@svc/server-ports";
import { invoiceObject, startFakeStripe, subscriptionObject, type FakeStripe } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@svc/runtime";
import { buildRuntime, createApp, type Runtime } from "@svc/server";
import { svc } from "./spawn.js";

describe("svc billing refund", () => {
  let stripe: FakeStripe;
  let runtime: Runtime;
  let server: ServerType;
  let url: string;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    runtime = await buildRuntime(loadConfig({
      SVC_DATA_DIR: "memory://", LOG_LEVEL: "silent", SVC_STRIPE_SECRET_KEY: stripe.secretKey, SVC_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      SVC_STRIPE_API_URL: stripe.url, SVC_STRIPE_PRICE_STARTER: "price_starter", SVC_STRIPE_PRICE_PRO: "price_pro",
    }));
    const app = createApp(runtime.services);
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve());
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await runtime?.close();
    await stripe?.close();
  });

  const keyOn = async (plan: string, role: "customer" | "operator" = "customer") => {
    const s = runtime.services;
    const account = await s.accounts.create({ name: `cli ${plan}`, plan, role }, new Date());
    const key = formatApiKey(randomBytes(32));
    await s.keys.create({ account_id: account.id, key_hash: hashApiKey(key), prefix: apiKeyHint(key) }, new Date());
    return { accountId: account.id, key };
  };
  const deliver = async (type: string, object: Record<string, unknown>) => {
    const now = Math.floor(Date.now() / 1000);
    const body = stripe.event(type, object, now);
    const res = await fetch(`${url}/v1/billing/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": stripe.sign(body, now) }, body });
    expect(res.status).toBe(200);
  };

  it("refunds the latest purchase with an operator's key; a customer's key is told it needs the operator", { timeout: 60_000 }, async () => {
    const operator = await keyOn("operator", "operator");
    const customer = await keyOn("free");
    const res = await fetch(`${url}/v1/billing/checkout`, { method: "POST", headers: { "x-api-key": customer.key, "content-type": "application/json" }, body: JSON.stringify({ plan: "starter" }) });
    expect(res.status).toBe(201);
    const cus = stripe.requests.findLast((r) => r.path === "/v1/checkout/sessions")?.form.customer as string;
    const now = Math.floor(Date.now() / 1000);
    await deliver("customer.subscription.created", subscriptionObject({ id: "sub_cli1", customer: cus, price: "price_starter", status: "active", periodEnd: now + 86_400 }));
    await deliver("invoice.paid", invoiceObject({ id: "in_cli1", customer: cus, price: "price_starter", amount: 2900, periodStart: now, periodEnd: now + 86_400 }));
    stripe.payInvoice("in_cli1", "pi_cli1");

    const refused = await svc(["billing", "refund", customer.accountId, "--url", url, "--key", customer.key]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Only the operator may refund");
    expect(stripe.refunds).toHaveLength(0);

    const ok = await svc(["billing", "refund", customer.accountId, "--url", url, "--key", operator.key]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Refunded ent_\w+ \(starter, 29\.00 USD, invoice in_cli1\)\. Account acc_\w+ is now on the free plan\.\n$/);
    expect(stripe.refunds).toEqual([expect.objectContaining({ payment_intent: "pi_cli1" })]);
  });
});
