import { z } from "@hono/zod-openapi";
import { EntityTypeSchema } from "./schemas.js";

/** The moderation queue (operator only): GET /v1/reports, POST /v1/reports/{id}/confirm|reject. */

export const ModerationStatusSchema = z.enum(["unverified", "confirmed", "rejected"]);

export const ReportListQuerySchema = z.object({
  status: ModerationStatusSchema.optional().openapi({ description: "Only reports in this state; the queue of work is `unverified`." }),
  entity: z.string().min(1).max(4096).optional().openapi({ description: "Only reports about this entity (any form `POST /v1/screen` accepts).", example: "paypa1.com" }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});

export const ReportSchema = z
  .object({
    id: z.string(),
    reporter_id: z.string().openapi({ description: "Who filed it: `account:<id>`, or `<platform>:<user id>` from a chat bot." }),
    entity: z.object({ type: EntityTypeSchema, value: z.string(), id: z.string() }),
    category: z.string(),
    description: z.string().nullable(),
    evidence_urls: z.array(z.string()),
    related_entities: z.array(z.string()).openapi({ description: "Entity ids; on confirmation they enter the shared graph as `reported_with` edges (in their shareable form)." }),
    check_id: z.string().nullable(),
    feedback: z.enum(["false_positive", "false_negative"]).nullable(),
    moderation_status: ModerationStatusSchema,
    moderated_at: z.string().nullable(),
    moderated_by: z.string().nullable().openapi({ description: "The operator account that made the last decision." }),
    moderation_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string().openapi({ description: "When the reporter last filed it (a report filed again replaces the earlier one and returns to the queue)." }),
  })
  .openapi("Report");

export const ReportListResponseSchema = z
  .object({ items: z.array(ReportSchema), next_cursor: z.string().nullable() })
  .openapi("ReportList");

const Reason = z.string().trim().min(1).max(1000);

export const ConfirmReportRequestSchema = z
  .object({ reason: Reason.optional().openapi({ description: "An optional note, stored with the decision." }) })
  .strict()
  .openapi("ConfirmReportRequest");

export const RejectReportRequestSchema = z
  .object({ reason: Reason.openapi({ description: "Why the report is rejected; stored and shown in the queue.", example: "The wallet is the victim's, not the scammer's." }) })
  .strict()
  .openapi("RejectReportRequest");

export type ReportBody = z.infer<typeof ReportSchema>;
export type ReportListBody = z.infer<typeof ReportListResponseSchema>;
