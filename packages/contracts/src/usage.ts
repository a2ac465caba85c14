import { z } from "@hono/zod-openapi";

const count = z.number().int().min(0);

/** `GET /v1/usage`: the calling key's plan, its limits and what it has used of them. */
export const UsageResponseSchema = z
  .object({
    plan: z.string().openapi({ example: "free" }),
    limits: z.object({
      per_minute: count.nullable().openapi({ description: "Checks in any 60 seconds; null = unlimited.", example: 30 }),
      per_month: count.nullable().openapi({ description: "Checks per calendar month (UTC); null = unlimited.", example: 1000 }),
    }),
    minute: z
      .object({
        used: count.openapi({ description: "Checks counted in the sliding 60-second window now." }),
        remaining: count,
        reset: count.openapi({ description: "Seconds until the checks counted now have all left the window (0 when none are counted)." }),
      })
      .nullable()
      .openapi({ description: "null when the plan has no per-minute limit." }),
    month: z.object({
      used: count,
      remaining: count.nullable().openapi({ description: "null when the plan has no monthly quota." }),
      period_start: z.string().openapi({ example: "2026-11-01T00:00:00.000Z" }),
      period_end: z.string().openapi({ description: "Exclusive: the next period starts here.", example: "2026-12-01T00:00:00.000Z" }),
    }),
  })
  .strict()
  .openapi("Usage");
export type UsageBody = z.infer<typeof UsageResponseSchema>;
