import { z } from "@hono/zod-openapi";

/** GET /v1/audit/verify: which account's chain, and optionally which stretch of it (by creation time). */
export const AuditVerifyQuerySchema = z.object({
  account_id: z.string().min(1).max(64).optional().openapi({ description: "The account whose chain to verify; the caller's own by default." }),
  since: z.string().datetime({ offset: true }).optional().openapi({ description: "Verify from the first record created at or after this time (anchored on the record before it)." }),
  until: z.string().datetime({ offset: true }).optional().openapi({ description: "Verify up to the last record created before this time." }),
});

export const AuditVerifyResponseSchema = z
  .object({
    ok: z.boolean(),
    account_id: z.string(),
    checked: z.number().int().openapi({ description: "Records read, the first bad one included." }),
    legacy: z.number().int().openapi({ description: "Records of the first, unkeyed scheme (hash_version 1) that verified: plain SHA-256, which anyone with database access could recompute." }),
    first_bad: z
      .object({
        id: z.string().nullable().openapi({ description: "The record; null when the problem is the chain head or records missing from its end." }),
        reason: z.enum(["hash_mismatch", "chain_broken", "missing", "unknown_key"]),
        detail: z.string(),
      })
      .nullable(),
  })
  .openapi("AuditVerification");

export type AuditVerification = z.infer<typeof AuditVerifyResponseSchema>;
