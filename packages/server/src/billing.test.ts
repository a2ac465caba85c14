import { BillingStatusSchema, CheckoutSessionSchema, ProblemSchema, RefundResultSchema } from "@svc/contracts";
import { hashApiKey } from "@svc/server-ports";
import { fixedClock, invoiceObject, startFakeStripe, subscriptionObject, type FakeStripe } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);
const PRICE_STARTER = "price_1StarterMonthly";
const PRICE_PRO = "price_1ProMonthly";

describe.each(engines)("billing with Stripe (/v1/billing/*) on %s", (engine) => {
  let api: TestApi;
  let stripe: FakeStripe;
  const clock = fixedClock("2026-11-20T12:00:00Z");
  const nowS = () => Math.floor(clock.now().getTime() / 1000);
  beforeAll(async () => {
    stripe = await startFakeStripe();
    api = await startTestApi(engine, {
      SVC_STRIPE_SECRET_KEY: stripe.secretKey, SVC_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, SVC_STRIPE_API_URL: stripe.url,
      SVC_STRIPE_PRICE_STARTER: PRICE_STARTER, SVC_STRIPE_PRICE_PRO: PRICE_PRO, SVC_BILLING_RETURN_URL: "https://svc.example/billing",
    }, { clock });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stripe?.close();
  });

  const req = (method: string, path: string, key: string, body?: unknown) =>
    api.app.request(path, { method, headers: { "x-api-key": key, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const deliver = (body: string, signature = stripe.sign(body, nowS())) =>
    api.app.request("/v1/billing/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body });
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status, await res.clone().text()).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(ProblemSchema.parse(await res.json()).code).toBe(code);
  };
  const status = async (key: string) => BillingStatusSchema.parse(await (await req("GET", "/v1/billing", key)).json());
  const usagePlan = async (key: string) => ((await (await req("GET", "/v1/usage", key)).json()) as { plan: string }).plan;
  /** Checkout for `plan`, then the customer id Stripe was given. */
  const checkout = async (key: string, plan: "starter" | "pro"): Promise<string> => {
    const res = await req("POST", "/v1/billing/checkout", key, { plan });
    expect(res.status, await res.clone().text()).toBe(201);
    const session = CheckoutSessionSchema.parse(await res.json());
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = stripe.requests.findLast((r) => r.path === "/v1/checkout/sessions");
    expect(sent?.form).toMatchObject({ mode: "subscription", "line_items[0][price]": plan === "pro" ? PRICE_PRO : PRICE_STARTER, success_url: "https://svc.example/billing?checkout=success" });
    return sent?.form.customer as string;
  };

  it("Checkout → subscription events → the account, its keys and its bound bot chats get the plan; cancellation waits for the period end", async () => {
    const a = await api.account("free");
    const customer = await checkout(a.key, "pro");
    expect(customer).toMatch(/^cus_/);
    // A chat bound to the plan with this account's key (/connect).
    const chat = `-100${Date.now()}`;
    await api.runtime.dataSource.query(
      `INSERT INTO bot_chat_settings (platform, chat_id, monitoring, policy, policy_levels, alerts, anti_raid, welcome, blocklist, allowlist, plan_tier, plan_source, plan_key_hash, plan_bound_by, updated_at)
       VALUES ('telegram', $1, true, 'notify', '{}', '{}', '{}', '{}', '[]', '{}', 'free', 'api_key', $2, '42', now())`,
      [chat, hashApiKey(a.key)],
    );
    const periodEnd = nowS() + 30 * 86_400;
    const sub = subscriptionObject({ id: `sub_${a.accountId.slice(-6)}`, customer, price: PRICE_PRO, status: "active", periodEnd });
    expect((await deliver(stripe.event("customer.subscription.created", sub, nowS()))).status).toBe(200);
    expect(await usagePlan(a.key)).toBe("pro");
    // A key limited to starter, made while on pro: it keeps its limit while that is within the plan.
    const limited = await req("POST", "/v1/keys", a.key, { name: "limited", plan: "starter" });
    expect(limited.status).toBe(201);
    const limitedKey = ((await limited.json()) as { key: string }).key;
    expect(await usagePlan(limitedKey)).toBe("starter");
    const [tier] = (await api.runtime.dataSource.query(`SELECT plan_tier FROM bot_chat_settings WHERE chat_id = $1`, [chat])) as { plan_tier: string }[];
    expect(tier?.plan_tier).toBe("pro");

    const invoice = invoiceObject({ id: `in_${a.accountId.slice(-8)}`, customer, price: PRICE_PRO, amount: 9900, periodStart: nowS(), periodEnd });
    expect((await deliver(stripe.event("invoice.paid", invoice, nowS()))).status).toBe(200);

    // Cancelled in the portal: still pro until the period ends.
    const canceled = { ...sub, cancel_at_period_end: true };
    expect((await deliver(stripe.event("customer.subscription.updated", canceled, nowS() + 60))).status).toBe(200);
    const s1 = await status(a.key);
    expect(s1).toMatchObject({ enabled: true, plan: "pro", subscription: { status: "active", plan: "pro", cancel_at_period_end: true, current_period_end: new Date(periodEnd * 1000).toISOString() } });
    expect(s1.entitlements).toEqual([expect.objectContaining({ source: "stripe", purchase_ref: invoice.id, plan: "pro", amount: 9900, currency: "usd", refunded_at: null })]);
    // An older event arriving late does not undo the newer one.
    expect((await deliver(stripe.event("customer.subscription.updated", sub, nowS() - 60))).status).toBe(200);
    expect((await status(a.key)).subscription?.cancel_at_period_end).toBe(true);

    // The period ends: Stripe deletes the subscription; the account, its keys and chat fall back to free.
    expect((await deliver(stripe.event("customer.subscription.deleted", { ...canceled, status: "canceled" }, nowS() + 120))).status).toBe(200);
    expect(await usagePlan(a.key)).toBe("free");
    // The limited key can no longer be above what is paid for: it follows the account again.
    expect(await usagePlan(limitedKey)).toBe("free");
    const [after] = (await api.runtime.dataSource.query(`SELECT plan_tier FROM bot_chat_settings WHERE chat_id = $1`, [chat])) as { plan_tier: string }[];
    expect(after?.plan_tier).toBe("free");
  });

  it("refuses forged, unsigned and stale webhooks; applies a replayed event id once", async () => {
    const a = await api.account("free");
    const customer = await checkout(a.key, "starter");
    const sub = subscriptionObject({ id: `sub_r${a.accountId.slice(-6)}`, customer, price: PRICE_STARTER, status: "active", periodEnd: nowS() + 86_400 });
    const body = stripe.event("customer.subscription.created", sub, nowS());
    await expectProblem(await deliver(body, stripe.sign(body, nowS(), "whsec_forged0000000000")), 400, "billing.invalid_signature");
    await expectProblem(await deliver(body.replace(PRICE_STARTER, PRICE_PRO), stripe.sign(body, nowS())), 400, "billing.invalid_signature");
    await expectProblem(await api.app.request("/v1/billing/webhook", { method: "POST", headers: { "content-type": "application/json" }, body }), 400, "billing.missing_signature");
    // Signed correctly, but 10 minutes ago (a captured delivery replayed): outside the 300 s tolerance.
    await expectProblem(await deliver(body, stripe.sign(body, nowS() - 600)), 400, "billing.invalid_signature");
    expect(await usagePlan(a.key)).toBe("free");
    // Signed correctly but not JSON (or JSON that is no event): a malformed event, not a bad signature.
    await expectProblem(await deliver("{not json"), 400, "billing.malformed_event");
    await expectProblem(await deliver("[1,2]"), 400, "billing.malformed_event");

    const first = await deliver(body);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(await usagePlan(a.key)).toBe("starter");
    // The operator moves the account meanwhile; Stripe redelivers the same event: nothing changes.
    await api.runtime.dataSource.query(`UPDATE accounts SET plan = 'free' WHERE id = $1`, [a.accountId]);
    const again = await deliver(body, stripe.sign(body, nowS() + 5));
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    const [row] = (await api.runtime.dataSource.query(`SELECT plan FROM accounts WHERE id = $1`, [a.accountId])) as { plan: string }[];
    expect(row?.plan).toBe("free");
    const [events] = (await api.runtime.dataSource.query(`SELECT count(*)::int AS n FROM billing_events WHERE id = $1`, [JSON.parse(body).id])) as { n: number }[];
    expect(events?.n).toBe(1);
  });

  it("the portal needs a customer; a second checkout while subscribed is refused", async () => {
    const a = await api.account("free");
    await expectProblem(await req("POST", "/v1/billing/portal", a.key, {}), 409, "billing.no_customer");
    const customer = await checkout(a.key, "starter");
    const portal = await req("POST", "/v1/billing/portal", a.key, {});
    expect(portal.status).toBe(201);
    expect(((await portal.json()) as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(stripe.requests.findLast((r) => r.path === "/v1/billing_portal/sessions")?.form).toEqual({ customer, return_url: "https://svc.example/billing" });
    await deliver(stripe.event("customer.subscription.created", subscriptionObject({ id: `sub_p${a.accountId.slice(-6)}`, customer, price: PRICE_STARTER, status: "active", periodEnd: nowS() + 86_400 }), nowS()));
    await expectProblem(await req("POST", "/v1/billing/checkout", a.key, { plan: "pro" }), 409, "billing.already_subscribed");
    await expectProblem(await req("POST", "/v1/billing/checkout", a.key, { plan: "enterprise" }), 422, "request.invalid");
    // Stripe refusing is a 502 that names no Stripe internals.
    stripe.failNext(400, { type: "invalid_request_error", code: "resource_missing", message: "No such customer: 'cus_secret'" });
    const refused = await req("POST", "/v1/billing/portal", a.key, {});
    const body = await refused.clone().text();
    await expectProblem(refused, 502, "billing.processor_error");
    expect(body).not.toContain("cus_secret");
    expect(JSON.parse(body)).toMatchObject({ retryable: false });
  });

  it("the operator refunds a purchase: Stripe refunds the invoice's payment once, the subscription ends, the account is free", async () => {
    const operator = await api.account("pro", "operator");
    const a = await api.account("free");
    const customer = await checkout(a.key, "pro");
    const subId = `sub_f${a.accountId.slice(-6)}`;
    await deliver(stripe.event("customer.subscription.created", subscriptionObject({ id: subId, customer, price: PRICE_PRO, status: "active", periodEnd: nowS() + 86_400 }), nowS()));
    const invoice = `in_f${a.accountId.slice(-8)}`;
    await deliver(stripe.event("invoice.paid", invoiceObject({ id: invoice, customer, price: PRICE_PRO, amount: 9900, periodStart: nowS(), periodEnd: nowS() + 86_400 }), nowS()));
    stripe.payInvoice(invoice, `pi_${a.accountId.slice(-8)}`);

    await expectProblem(await req("POST", "/v1/billing/refunds", a.key, { account_id: a.accountId }), 403, "auth.operator_only");
    // The operator finds the purchase in the account's ledger; a customer cannot look at another account's.
    const seen = BillingStatusSchema.parse(await (await req("GET", `/v1/billing?account_id=${a.accountId}`, operator.key)).json());
    expect(seen.entitlements.map((e) => e.purchase_ref)).toEqual([invoice]);
    const other = await api.account("free");
    await expectProblem(await req("GET", `/v1/billing?account_id=${a.accountId}`, other.key), 403, "auth.operator_only");
    const res = await req("POST", "/v1/billing/refunds", operator.key, { account_id: a.accountId });
    expect(res.status, await res.clone().text()).toBe(200);
    const out = RefundResultSchema.parse(await res.json());
    expect(out).toMatchObject({ plan: "free", entitlement: { purchase_ref: invoice, refunded_at: clock.now().toISOString() } });
    expect(stripe.refunds.filter((r) => r.payment_intent === `pi_${a.accountId.slice(-8)}`)).toHaveLength(1);
    expect(stripe.requests.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subId}`)).toBe(true);
    expect(await usagePlan(a.key)).toBe("free");
    // Asking again refunds nothing more.
    await expectProblem(await req("POST", "/v1/billing/refunds", operator.key, { account_id: a.accountId }), 404, "billing.entitlement_not_found");
    expect(stripe.refunds.filter((r) => r.payment_intent === `pi_${a.accountId.slice(-8)}`)).toHaveLength(1);
  });

  it("an account deletion stops Stripe charging it: the subscription is cancelled and the customer deleted there", async () => {
    const a = await api.account("free");
    const customer = await checkout(a.key, "starter");
    const subId = `sub_d${a.accountId.slice(-6)}`;
    await deliver(stripe.event("customer.subscription.created", subscriptionObject({ id: subId, customer, price: PRICE_STARTER, status: "active", periodEnd: nowS() + 86_400 }), nowS()));
    const res = await req("POST", "/v1/account/deletion", a.key, { confirm: true });
    expect(res.status, await res.clone().text()).toBe(202);
    expect(stripe.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual(expect.arrayContaining([`/v1/subscriptions/${subId}`, `/v1/customers/${customer}`]));
    await expectProblem(await req("GET", "/v1/billing", a.key), 401, "auth.revoked_key");
  });

  it("Telegram Stars purchases land in the same ledger", async () => {
    const { TypeOrmBotPaymentLedger } = await import("@svc/persistence");
    const ledger = new TypeOrmBotPaymentLedger(api.runtime.dataSource);
    const charge = `stars_${Date.now()}`;
    expect(await ledger.record({ chargeId: charge, platform: "telegram", userId: "7", chatId: "-1001", plan: "starter", amount: 250, currency: "XTR", paidAt: clock.now().toISOString(), refundedAt: null })).toBe(true);
    await ledger.markRefunded(charge, clock.now());
    const rows = (await api.runtime.dataSource.query(`SELECT source, chat, plan, amount, currency, refunded_at FROM entitlements WHERE purchase_ref = $1`, [charge])) as Record<string, unknown>[];
    expect(rows).toEqual([{ source: "telegram_stars", chat: "telegram:-1001", plan: "starter", amount: 250, currency: "XTR", refunded_at: clock.now() }]);
  });
});

describe("billing when Stripe is not configured", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi("pglite");
  }, 120_000);
  afterAll(async () => api?.close());

  it("says so: status shows enabled false, checkout and webhooks are 503 billing.not_configured", async () => {
    const a = await api.account("free");
    const get = await api.app.request("/v1/billing", { headers: { "x-api-key": a.key } });
    expect(await get.json()).toEqual({ enabled: false, plan: "free", subscription: null, entitlements: [] });
    const post = await api.app.request("/v1/billing/checkout", { method: "POST", headers: { "x-api-key": a.key, "content-type": "application/json" }, body: JSON.stringify({ plan: "pro" }) });
    expect(post.status).toBe(503);
    expect(((await post.json()) as { code: string }).code).toBe("billing.not_configured");
    const hook = await api.app.request("/v1/billing/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" }, body: "{}" });
    expect(hook.status).toBe(503);
  });
});
