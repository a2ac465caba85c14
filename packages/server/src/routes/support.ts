import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { TicketDetail, TicketReply, TicketSummary } from "@svc/bot-kernel";
import {
  ProblemSchema, SupportReplyRequestSchema, SupportReplySchema, SupportTicketDetailSchema, SupportTicketListQuerySchema, SupportTicketListSchema,
  type SupportReplyBody, type SupportTicketBody, type SupportTicketDetailBody,
} from "@svc/contracts";
import { openCursor, sealCursor } from "../cursor.js";
import { idempotent } from "../idempotency.js";
import { callerOf, requireOperator } from "../middleware/auth.js";
import { problem } from "../problem.js";
import type { ApiServices } from "../services.js";

/**
 * The chat bots' support tickets (docs/api.md "Support"; docs/decisions/0055). Operator only: a
 * customer key is refused with 403 before anything else is looked at, so it learns nothing about
 * tickets, not even whether an id exists. An answer is stored and delivered by the ticket's bot
 * to the chat the ticket came from, once.
 */

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457)", content: { "application/problem+json": { schema: ProblemSchema } } }]));
const common = problems(400, 401, 403, 413, 415, 422, 429, 503);
const security = [{ ApiKey: [] }];
const params = z.object({ id: z.string().min(1).max(64) });
const idempotencyHeader = z.object({ "idempotency-key": z.string().min(1).max(255).optional().openapi({ description: "Same key + same body replays the first response for 24 h." }) });

export const listSupportTicketsRoute = createRoute({
  method: "get", path: "/v1/admin/support/tickets", tags: ["support"], security,
  summary: "Support tickets opened in the chat bots, oldest first (operator only)",
  request: { query: SupportTicketListQuerySchema },
  responses: { 200: { description: "A page of tickets", content: { "application/json": { schema: SupportTicketListSchema } } }, ...common },
});

export const getSupportTicketRoute = createRoute({
  method: "get", path: "/v1/admin/support/tickets/{id}", tags: ["support"], security,
  summary: "One ticket with its answers and their delivery (operator only)",
  request: { params },
  responses: { 200: { description: "The ticket", content: { "application/json": { schema: SupportTicketDetailSchema } } }, ...common, ...problems(404) },
});

export const replySupportTicketRoute = createRoute({
  method: "post", path: "/v1/admin/support/tickets/{id}/reply", tags: ["support"], security,
  summary: "Answer a ticket: the ticket's bot sends the text to the chat it came from, once (operator only)",
  request: { params, headers: idempotencyHeader, body: { content: { "application/json": { schema: SupportReplyRequestSchema } }, required: true } },
  responses: { 201: { description: "The answer, pending delivery", content: { "application/json": { schema: SupportReplySchema } } }, ...common, ...problems(404, 409) },
});

const notFound = (id: string) => problem({ status: 404, code: "support.ticket_not_found", title: "Not found", detail: `No support ticket ${id}.` });

export function registerSupportRoutes(app: OpenAPIHono, s: ApiServices): void {
  // Before validation, so a customer learns nothing about tickets, not even what the routes accept.
  for (const path of ["/v1/admin/support", "/v1/admin/support/*"]) {
    app.use(path, async (c, next) => {
      requireOperator(callerOf(c));
      return next();
    });
  }

  app.openapi(listSupportTicketsRoute, async (c) => {
    const q = c.req.valid("query");
    const pos = q.cursor ? openCursor(`support:${q.status}`, q.cursor, s.cursorKey) : null;
    const rows = await s.support.list({ ...(q.status !== "all" ? { status: q.status } : {}), limit: q.limit + 1, after: pos ? { openedAt: pos.at, id: pos.id } : null });
    const items = rows.slice(0, q.limit);
    const last = items.at(-1);
    const next_cursor = rows.length > q.limit && last ? sealCursor(`support:${q.status}`, { at: last.openedAt, id: last.id }, s.cursorKey) : null;
    return c.json({ items: items.map(ticketBody), next_cursor }, 200);
  });

  app.openapi(getSupportTicketRoute, async (c) => {
    const id = c.req.valid("param").id;
    const t = await s.support.get(id);
    if (!t) throw notFound(id);
    return c.json(detailBody(t), 200);
  });

  app.openapi(replySupportTicketRoute, async (c) => {
    const caller = callerOf(c);
    const id = c.req.valid("param").id;
    const { text } = c.req.valid("json");
    const result = await idempotent(c, s, caller.accountId, async () => {
      const reply = await s.support.reply(id, text, caller.accountId, s.clock.now());
      if (!reply) throw notFound(id);
      return { status: 201, body: replyBody(reply) };
    });
    return c.json(result.body as SupportReplyBody, result.status as 201);
  });
}

function ticketBody(t: TicketSummary): SupportTicketBody {
  return {
    id: t.id, platform: t.platform, chat_id: t.chatId, user_id: t.userId, topic: t.topic, text: t.text, opened_at: t.openedAt,
    status: t.status, answered_at: t.answeredAt, reply_count: t.replyCount,
  };
}

function detailBody(t: TicketDetail): SupportTicketDetailBody {
  return { ...ticketBody(t), replies: t.replies.map(replyBody) };
}

function replyBody(r: TicketReply): SupportReplyBody {
  return { id: r.id, text: r.text, operator_id: r.operatorId, created_at: r.createdAt, delivery: r.delivery, delivered_at: r.deliveredAt, attempts: r.attempts, last_error: r.lastError };
}
