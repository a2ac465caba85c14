import { z } from "@hono/zod-openapi";
import { VerdictSchema } from "./schemas.js";

/** Billing (/v1/billing/*), account deletion (/v1/account/deletion) and human review (/v1/checks/{id}/review, /v1/reviews). */

export const CheckoutRequestSchema = z
  .object({ plan: z.enum(["starter", "pro"]).openapi({ description: "The plan to buy: Starter ($29/month) or Pro ($99/month)." }) })
  .strict()
  .openapi("CheckoutRequest");

export const CheckoutSessionSchema = z
  .object({
    id: z.string().openapi({ example: "cs_test_a1…" }),
    url: z.string().openapi({ description: "Stripe Checkout's page: send the customer there." }),
  })
  .openapi("CheckoutSession");

export const PortalSessionSchema = z
  .object({ url: z.string().openapi({ description: "The Stripe Billing Portal: change plan, card or cancel (at the end of the period)." }) })
  .openapi("PortalSession");

export const EntitlementSchema = z
  .object({
    id: z.string().openapi({ example: "ent_9c2…" }),
    source: z.enum(["stripe", "telegram_stars"]),
    purchase_ref: z.string().openapi({ description: "The processor's id: a Stripe invoice (in_…), a Telegram charge." }),
    plan: z.string(),
    amount: z.number().int().openapi({ description: "In the currency's smallest unit (cents; Stars)." }),
    currency: z.string(),
    period_start: z.string(),
    period_end: z.string().nullable(),
    refunded_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("Entitlement");

export const BillingStatusSchema = z
  .object({
    enabled: z.boolean().openapi({ description: "False when this server sells no plans (no Stripe configured)." }),
    plan: z.string().openapi({ description: "The account's plan now." }),
    subscription: z
      .object({
        status: z.string().nullable().openapi({ description: "Stripe's subscription status (active, past_due, canceled, …); null before the first purchase completes." }),
        plan: z.string().nullable(),
        cancel_at_period_end: z.boolean().openapi({ description: "True when cancelled: the plan stays until current_period_end, then becomes free." }),
        current_period_end: z.string().nullable(),
      })
      .nullable(),
    entitlements: z.array(EntitlementSchema).openapi({ description: "The account's purchases (the ledger), newest first, at most 100." }),
  })
  .openapi("BillingStatus");

export const RefundRequestSchema = z
  .object({
    account_id: z.string().min(1).max(64),
    entitlement_id: z.string().min(1).max(64).optional().openapi({ description: "The purchase to refund; default the account's latest unrefunded Stripe purchase." }),
  })
  .strict()
  .openapi("RefundRequest");

export const RefundResultSchema = z
  .object({ entitlement: EntitlementSchema, plan: z.string().openapi({ description: "The account's plan after the refund (free)." }) })
  .openapi("RefundResult");

export const WebhookAckSchema = z.object({ received: z.literal(true), duplicate: z.boolean() }).openapi("WebhookAck");

export const DeletionRequestSchema = z
  .object({
    id: z.string().openapi({ example: "del_51f…" }),
    status: z.enum(["scheduled", "completed"]),
    requested_at: z.string(),
    purge_after: z.string().openapi({ description: "When the purge runs (at most 30 days after the request; at once by default)." }),
  })
  .openapi("DeletionRequest");

export const ReviewRequestSchema = z
  .object({ reason: z.string().trim().min(1).max(2000).openapi({ description: "Why a person should look at this verdict." }) })
  .strict()
  .openapi("ReviewRequest");

export const ReviewSchema = z
  .object({
    id: z.string().openapi({ example: "rev_0a1…" }),
    check_id: z.string(),
    reason: z.string(),
    status: z.enum(["pending", "resolved"]),
    outcome: z.enum(["upheld", "changed", "dismissed"]).nullable().openapi({ description: "upheld: the verdict stands; changed: it was wrong and the note says what is right; dismissed: not a reviewable request." }),
    note: z.string().nullable(),
    created_at: z.string(),
    resolved_at: z.string().nullable(),
  })
  .openapi("Review");

export const OperatorReviewSchema = ReviewSchema.extend({
  account_id: z.string(),
  verdict: VerdictSchema.nullable().optional().openapi({ description: "In the queue: the verdict under review (null if the check is gone)." }),
}).openapi("OperatorReview");

export const ReviewQueueQuerySchema = z.object({
  status: z.enum(["pending", "resolved"]).default("pending"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional().openapi({ description: "next_cursor of the previous page." }),
});

export const ReviewQueueSchema = z
  .object({ items: z.array(OperatorReviewSchema), next_cursor: z.string().nullable() })
  .openapi("ReviewQueue");

export const ResolveReviewRequestSchema = z
  .object({
    outcome: z.enum(["upheld", "changed", "dismissed"]),
    note: z.string().trim().min(1).max(2000).optional().openapi({ description: "Required unless upheld: what the requester is told." }),
  })
  .strict()
  .openapi("ResolveReviewRequest");
