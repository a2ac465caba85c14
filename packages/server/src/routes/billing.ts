import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import {
  BillingStatusSchema, CheckoutRequestSchema, CheckoutSessionSchema, PortalSessionSchema, ProblemSchema, RefundRequestSchema, RefundResultSchema, WebhookAckSchema,
} from "@svc/contracts";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { actingAccount } from "../billing/account.js";
import type { StripeBilling } from "../billing/stripe-billing.js";
import { callerOf, requireOperator } from "../middleware/auth.js";
import { requestLog } from "../middleware/request-id.js";
import { problem, problemResponse } from "../problem.js";
import { publicOrigin } from "../public-origin.js";
import type { ApiServices } from "../services.js";

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const common = problems(400, 401, 413, 415, 422, 429, 503);
const security = [{ ApiKey: [] }];
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export const billingStatusRoute = createRoute({
  method: "get", path: "/v1/billing", tags: ["billing"], security,
  summary: "Your plan, subscription (status, cancellation at period end) and purchases; the operator may name another account",
  request: { query: z.object({ account_id: z.string().min(1).max(64).optional().openapi({ description: "Operator only: another account's billing (to find a purchase to refund)." }) }) },
  responses: { 200: { description: "Billing state", content: { "application/json": { schema: BillingStatusSchema } } }, ...common, ...problems(403, 404) },
});

export const checkoutRoute = createRoute({
  method: "post", path: "/v1/billing/checkout", tags: ["billing"], security,
  summary: "Start buying Starter or Pro: a Stripe Checkout session to send the customer to",
  request: { body: json(CheckoutRequestSchema) },
  responses: { 201: { description: "The Checkout session", content: { "application/json": { schema: CheckoutSessionSchema } } }, ...common, ...problems(409, 502) },
});

export const portalRoute = createRoute({
  method: "post", path: "/v1/billing/portal", tags: ["billing"], security,
  summary: "A Stripe Billing Portal session: change plan, card, or cancel at the end of the period",
  request: { body: json(z.object({}).strict()) },
  responses: { 201: { description: "The portal session", content: { "application/json": { schema: PortalSessionSchema } } }, ...common, ...problems(409, 502) },
});

export const refundRoute = createRoute({
  method: "post", path: "/v1/billing/refunds", tags: ["billing"], security,
  summary: "Refund an account's Stripe purchase and end its subscription (operator only)",
  request: { body: json(RefundRequestSchema) },
  responses: { 200: { description: "The refunded purchase", content: { "application/json": { schema: RefundResultSchema } } }, ...common, ...problems(403, 404, 409, 502) },
});

export const stripeWebhookRoute = createRoute({
  method: "post", path: "/v1/billing/webhook", tags: ["billing"], security: [],
  summary: "Stripe's events (signed with the endpoint's secret; no API key). Each event id is applied once",
  description: "The body is Stripe's event JSON, checked against the `Stripe-Signature` header on the raw bytes. Handled: customer.subscription.created/updated/deleted (the account's plan, its keys and bound bot chats follow), invoice.paid (the ledger). Other events are acknowledged and ignored.",
  responses: { 200: { description: "Received", content: { "application/json": { schema: WebhookAckSchema } } }, ...problems(400, 413, 503) },
});

const disabled = () => problem({ status: 503, code: "billing.not_configured", title: "Billing is off", detail: "This server sells no plans (Stripe is not configured).", retryable: false });
const billingOf = (s: ApiServices): StripeBilling => s.billing ?? (() => { throw disabled(); })();
const returnUrl = (c: Context, s: ApiServices): string => s.billingReturnUrl ?? `${publicOrigin(c)}/`;

/** Stripe's webhook: registered before API-key authentication and JSON parsing (it needs the raw body). */
export function registerStripeWebhook(app: OpenAPIHono, s: ApiServices): void {
  app.use(stripeWebhookRoute.path, bodyLimit({
    maxSize: WEBHOOK_BODY_LIMIT,
    onError: (c) => problemResponse(c, { status: 413, code: "request.too_large", title: "Body too large", detail: `Webhook bodies are limited to ${WEBHOOK_BODY_LIMIT} bytes.` }),
  }));
  app.openapi(stripeWebhookRoute, async (c) => {
    const out = await billingOf(s).webhook(await c.req.text(), c.req.header("stripe-signature"), requestLog(s, c));
    return c.json({ received: true as const, duplicate: out.duplicate }, 200);
  });
}

export function registerBillingRoutes(app: OpenAPIHono, s: ApiServices): void {
  app.openapi(billingStatusRoute, async (c) => {
    const named = c.req.valid("query").account_id;
    let account = await actingAccount(c, s);
    if (named !== undefined && named !== account.id) {
      requireOperator(callerOf(c));
      const other = await s.accounts.get(named);
      if (!other) throw problem({ status: 404, code: "billing.account_not_found", title: "Not found", detail: `No account ${named}.` });
      account = other;
    }
    if (!s.billing) return c.json({ enabled: false, plan: account.plan, subscription: null, entitlements: [] }, 200);
    const { subscription, entitlements } = await s.billing.status(account.id);
    return c.json({
      enabled: true, plan: account.plan,
      subscription: subscription ? { status: subscription.status, plan: subscription.plan, cancel_at_period_end: subscription.cancelAtPeriodEnd, current_period_end: subscription.currentPeriodEnd } : null,
      entitlements,
    }, 200);
  });

  app.openapi(checkoutRoute, async (c) => {
    const billing = billingOf(s);
    const account = await actingAccount(c, s);
    c.header("cache-control", "no-store");
    return c.json(await billing.checkout(account, c.req.valid("json").plan, returnUrl(c, s)), 201);
  });

  app.openapi(portalRoute, async (c) => {
    const billing = billingOf(s);
    const account = await actingAccount(c, s);
    c.header("cache-control", "no-store");
    return c.json(await billing.portal(account.id, returnUrl(c, s)), 201);
  });

  app.openapi(refundRoute, async (c) => {
    requireOperator(callerOf(c));
    const billing = billingOf(s);
    const body = c.req.valid("json");
    const account = await s.accounts.get(body.account_id);
    if (!account) throw problem({ status: 404, code: "billing.account_not_found", title: "Not found", detail: `No account ${body.account_id}.` });
    const entitlement = await billing.refund(account.id, body.entitlement_id);
    return c.json({ entitlement, plan: (await s.accounts.get(account.id))?.plan ?? "free" }, 200);
  });
}
