import { z } from "@hono/zod-openapi";

/** `/v1/admin/support`: the chat bots' support tickets, read and answered by the operator (docs/api.md "Support"). */

export const SupportTicketListQuerySchema = z.object({
  status: z.enum(["open", "answered", "all"]).default("open").openapi({ description: "`open`: not answered yet (the work); `answered`: at least one reply; `all`." }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(300).optional().openapi({ description: "next_cursor of the previous page." }),
});

export const SupportTicketSchema = z
  .object({
    id: z.string().openapi({ example: "T-4K9QZ2MX" }),
    platform: z.string().openapi({ description: "The chat platform the ticket was opened on.", example: "telegram" }),
    chat_id: z.string().openapi({ description: "The chat it was opened in; the answer is delivered there." }),
    user_id: z.string().openapi({ description: "The platform's id of the user who opened it." }),
    topic: z.enum(["general", "payments"]),
    text: z.string().openapi({ description: "What the user wrote to support (`/support <text>`): never monitored chat content." }),
    opened_at: z.string(),
    status: z.enum(["open", "answered"]),
    answered_at: z.string().nullable(),
    reply_count: z.number().int(),
  })
  .openapi("SupportTicket");

export const SupportReplySchema = z
  .object({
    id: z.string(),
    text: z.string(),
    operator_id: z.string().openapi({ description: "The operator account that wrote it." }),
    created_at: z.string(),
    delivery: z.enum(["pending", "delivered", "failed"]).openapi({ description: "`pending` until the ticket's bot sends it to the chat; `failed` after repeated refusals (see `last_error`)." }),
    delivered_at: z.string().nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
  })
  .openapi("SupportReply");

export const SupportTicketDetailSchema = SupportTicketSchema.extend({ replies: z.array(SupportReplySchema) }).openapi("SupportTicketDetail");

export const SupportTicketListSchema = z
  .object({ items: z.array(SupportTicketSchema), next_cursor: z.string().nullable() })
  .openapi("SupportTicketList");

export const SupportReplyRequestSchema = z
  .object({ text: z.string().trim().min(1).max(4000).openapi({ description: "The answer, sent as it is to the chat the ticket came from.", example: "We restored your link; sorry about that." }) })
  .strict()
  .openapi("SupportReplyRequest");

export type SupportTicketBody = z.infer<typeof SupportTicketSchema>;
export type SupportTicketDetailBody = z.infer<typeof SupportTicketDetailSchema>;
export type SupportTicketListBody = z.infer<typeof SupportTicketListSchema>;
export type SupportReplyBody = z.infer<typeof SupportReplySchema>;
