import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake of the part of Stripe's API that billing uses, on 127.0.0.1, speaking Stripe's wire
 * format: form-encoded requests with a Bearer secret key, JSON objects with `object` types,
 * `{ error: { type, message } }` failures, `Idempotency-Key` replays, and webhooks signed as
 * Stripe signs them (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`). Test-only.
 */
export interface FakeStripe {
  readonly url: string;
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** Requests received, in order: method, path, form fields. */
  readonly requests: { method: string; path: string; form: Record<string, string> }[];
  readonly refunds: { id: string; payment_intent: string }[];
  /** A signed webhook delivery for `event` at `timestamp` (seconds), as Stripe sends it. */
  sign(body: string, timestamp: number, secret?: string): string;
  event(type: string, object: Record<string, unknown>, created: number, id?: string): string;
  /** What `GET /v1/invoice_payments?invoice=` lists for an invoice. */
  payInvoice(invoice: string, paymentIntent: string): void;
  /** The next request is refused with this Stripe error (status and `error` object). */
  failNext(status: number, error: { type: string; message: string; code?: string }): void;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const requests: FakeStripe["requests"] = [];
  const refunds: FakeStripe["refunds"] = [];
  const idempotent = new Map<string, string>();
  const invoicePayments = new Map<string, string>();
  let n = 0;
  let failure: { status: number; error: Record<string, unknown> } | null = null;
  const id = (prefix: string) => `${prefix}_${(++n).toString().padStart(6, "0")}${randomBytes(4).toString("hex")}`;

  const route = (method: string, path: string, form: Record<string, string>, query: URLSearchParams): [number, unknown] => {
    if (method === "POST" && path === "/v1/customers") return [200, { id: id("cus"), object: "customer", name: form.name ?? null, metadata: meta(form), livemode: false }];
    const customer = /^\/v1\/customers\/(cus_\w+)$/.exec(path);
    if (method === "DELETE" && customer) return [200, { id: customer[1], object: "customer", deleted: true }];
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const sid = id("cs_test");
      return [200, { id: sid, object: "checkout.session", mode: form.mode, customer: form.customer, client_reference_id: form.client_reference_id ?? null, url: `https://checkout.stripe.com/c/pay/${sid}`, status: "open", metadata: meta(form) }];
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      return [200, { id: id("bps"), object: "billing_portal.session", customer: form.customer, return_url: form.return_url, url: `https://billing.stripe.com/p/session/${id("test")}` }];
    }
    if (method === "GET" && path === "/v1/invoice_payments") {
      const inv = query.get("invoice") ?? "";
      const pi = invoicePayments.get(inv);
      const data = pi ? [{ id: id("inpay"), object: "invoice_payment", invoice: inv, is_default: true, status: "paid", payment: { type: "payment_intent", payment_intent: pi } }] : [];
      return [200, { object: "list", data, has_more: false, url: "/v1/invoice_payments" }];
    }
    if (method === "POST" && path === "/v1/refunds") {
      if (!form.payment_intent) return [400, { error: { type: "invalid_request_error", message: "Missing required param: payment_intent.", param: "payment_intent" } }];
      const r = { id: id("re"), object: "refund", payment_intent: form.payment_intent, status: "succeeded", metadata: meta(form) };
      refunds.push({ id: r.id, payment_intent: r.payment_intent });
      return [200, r];
    }
    const sub = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(path);
    if (method === "DELETE" && sub) return [200, { id: sub[1], object: "subscription", status: "canceled", cancel_at_period_end: false }];
    return [404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` } }];
  };

  const server: Server = createServer(async (req, res) => {
    const raw = await body(req);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const form = Object.fromEntries(new URLSearchParams(raw));
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": `req_${randomBytes(6).toString("hex")}` });
      res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } });
    }
    const key = req.headers["idempotency-key"];
    const replay = typeof key === "string" ? idempotent.get(`${req.method} ${url.pathname} ${key}`) : undefined;
    if (replay) return send(200, replay);
    if (failure) {
      const f = failure;
      failure = null;
      return send(f.status, { error: f.error });
    }
    requests.push({ method: req.method ?? "", path: url.pathname, form });
    const [status, payload] = route(req.method ?? "", url.pathname, form, url.searchParams);
    if (typeof key === "string" && status === 200) idempotent.set(`${req.method} ${url.pathname} ${key}`, JSON.stringify(payload));
    send(status, payload);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`, secretKey, webhookSecret, requests, refunds,
    sign(body, timestamp, secret = webhookSecret) {
      const v1 = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
      return `t=${timestamp},v1=${v1}`;
    },
    event(type, object, created, eventId = id("evt")) {
      return JSON.stringify({ id: eventId, object: "event", api_version: "2026-10-28.endive", created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } }, null, 2);
    },
    payInvoice(invoice, paymentIntent) {
      invoicePayments.set(invoice, paymentIntent);
    },
    failNext(status, error) {
      failure = { status, error };
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const meta = (form: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(form).filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v]));

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A subscription object as Stripe sends it in `customer.subscription.*` events (the fields billing reads, and their neighbours). */
export function subscriptionObject(o: { id: string; customer: string; price: string; status: string; cancelAtPeriodEnd?: boolean; periodEnd: number }): Record<string, unknown> {
  return {
    id: o.id, object: "subscription", customer: o.customer, status: o.status, cancel_at_period_end: o.cancelAtPeriodEnd ?? false, livemode: false, metadata: {},
    items: { object: "list", has_more: false, url: `/v1/subscription_items?subscription=${o.id}`, data: [{
      id: `si_${o.id.slice(4)}`, object: "subscription_item", quantity: 1, subscription: o.id,
      current_period_start: o.periodEnd - 30 * 86_400, current_period_end: o.periodEnd,
      price: { id: o.price, object: "price", currency: "usd", recurring: { interval: "month", interval_count: 1 }, type: "recurring" },
    }] },
  };
}

/** An `invoice.paid` invoice with one subscription line. */
export function invoiceObject(o: { id: string; customer: string; price: string; amount: number; periodStart: number; periodEnd: number }): Record<string, unknown> {
  return {
    id: o.id, object: "invoice", customer: o.customer, status: "paid", currency: "usd", amount_due: o.amount, amount_paid: o.amount, livemode: false,
    lines: { object: "list", has_more: false, url: `/v1/invoices/${o.id}/lines`, data: [{
      id: `il_${o.id.slice(3)}`, object: "line_item", amount: o.amount, currency: "usd", invoice: o.id, quantity: 1,
      period: { start: o.periodStart, end: o.periodEnd },
      pricing: { type: "price_details", price_details: { price: o.price, product: "prod_svc" }, unit_amount_decimal: String(o.amount) },
    }] },
  };
}
