import { randomBytes } from "node:crypto";
import type {
  SupportDesk, SupportInbox, SupportReplyToSend, SupportTicket, TicketDetail, TicketPosition, TicketReply, TicketStatus, TicketSummary,
} from "@svc/bot-kernel";
import type { DataSource } from "typeorm";
import type { BotSupportReplyRow, BotSupportTicketRow } from "../entities/bot.js";
import { iso, isoOrNull, newId, rowsOf } from "./sql.js";

/** Crockford's base32: no I, L, O or U, so an id read aloud or retyped survives. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `T-` and 8 random characters (40 bits): short enough to quote, no counter to share between processes. */
export function ticketId(): string {
  const bytes = randomBytes(8);
  let id = "T-";
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}

/** What an operator sees of a delivery error: the platform's message, bounded. */
const MAX_ERROR = 500;

type TicketRow = BotSupportTicketRow & { reply_count: number | string };

/**
 * Support tickets in `bot_support_tickets` (what the user chose to send to support, with who and
 * where) and operators' answers in `bot_support_replies`, which are also the bots' outbox: the
 * bots' side (`SupportDesk`) and the operator's (`SupportInbox`) on one pair of tables.
 */
export class TypeOrmBotSupportDesk implements SupportDesk, SupportInbox {
  constructor(private readonly ds: DataSource) {}

  async open(ticket: SupportTicket): Promise<{ readonly id: string }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const rows = (await this.ds.manager.query(
        `INSERT INTO bot_support_tickets (id, platform, chat_id, user_id, topic, text, opened_at, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, 'open')
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [ticketId(), ticket.platform, ticket.chatId, ticket.userId, ticket.topic, ticket.text, ticket.openedAt],
      )) as { id: string }[];
      if (rows[0]) return { id: rows[0].id };
    }
    throw new Error("could not allocate a support ticket id");
  }

  async claimReplies(platform: string, now: Date, leaseMs: number, limit: number): Promise<readonly SupportReplyToSend[]> {
    // SKIP LOCKED: two bot processes claiming at once take different answers, neither waits.
    const rows = await rowsOf<BotSupportReplyRow>(
      this.ds.manager,
      `UPDATE bot_support_replies r SET claimed_until = $3::timestamptz, attempts = r.attempts + 1
        WHERE r.id IN (
          SELECT id FROM bot_support_replies
           WHERE platform = $1 AND delivered_at IS NULL AND failed_at IS NULL AND (claimed_until IS NULL OR claimed_until <= $2::timestamptz)
           ORDER BY created_at, id
           LIMIT $4
           FOR UPDATE SKIP LOCKED)
        RETURNING r.*`,
      [platform, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit],
    );
    return rows
      .sort((a, b) => iso(a.created_at).localeCompare(iso(b.created_at)) || (a.id < b.id ? -1 : 1))
      .map((r) => ({ id: r.id, ticketId: r.ticket_id, chatId: r.chat_id, text: r.text, attempts: Number(r.attempts) }));
  }

  async delivered(replyId: string, at: Date): Promise<void> {
    await this.ds.manager.query(`UPDATE bot_support_replies SET delivered_at = $2::timestamptz, claimed_until = NULL WHERE id = $1 AND delivered_at IS NULL`, [replyId, at.toISOString()]);
  }

  async deliveryFailed(replyId: string, error: string, at: Date, final: boolean): Promise<void> {
    await this.ds.manager.query(
      `UPDATE bot_support_replies SET last_error = $2, claimed_until = NULL, failed_at = CASE WHEN $4::boolean THEN $3::timestamptz ELSE NULL END
        WHERE id = $1 AND delivered_at IS NULL`,
      [replyId, error.slice(0, MAX_ERROR), at.toISOString(), final],
    );
  }

  async list(query: { readonly status?: TicketStatus; readonly limit: number; readonly after?: TicketPosition | null }): Promise<readonly TicketSummary[]> {
    const rows = (await this.ds.manager.query(
      `SELECT t.*, (SELECT count(*) FROM bot_support_replies r WHERE r.ticket_id = t.id)::int AS reply_count
         FROM bot_support_tickets t
        WHERE ($1::text IS NULL OR t.status = $1::text)
          AND ($2::timestamptz IS NULL OR (t.opened_at, t.id) > ($2::timestamptz, $3::text COLLATE "C"))
        ORDER BY t.opened_at, t.id COLLATE "C"
        LIMIT $4`,
      [query.status ?? null, query.after?.openedAt ?? null, query.after?.id ?? null, query.limit],
    )) as TicketRow[];
    return rows.map(toSummary);
  }

  async get(id: string): Promise<TicketDetail | null> {
    const [row] = (await this.ds.manager.query(
      `SELECT t.*, (SELECT count(*) FROM bot_support_replies r WHERE r.ticket_id = t.id)::int AS reply_count FROM bot_support_tickets t WHERE t.id = $1`,
      [id],
    )) as TicketRow[];
    if (!row) return null;
    const replies = (await this.ds.manager.query(`SELECT * FROM bot_support_replies WHERE ticket_id = $1 ORDER BY created_at, id COLLATE "C"`, [id])) as BotSupportReplyRow[];
    return { ...toSummary(row), replies: replies.map(toReply) };
  }

  async reply(ticketId: string, text: string, operatorId: string, at: Date): Promise<TicketReply | null> {
    return this.ds.transaction(async (m) => {
      // The ticket row is locked, so its status and first answer time are set once.
      const [ticket] = (await m.query(`SELECT * FROM bot_support_tickets WHERE id = $1 FOR UPDATE`, [ticketId])) as BotSupportTicketRow[];
      if (!ticket) return null;
      const [row] = (await m.query(
        `INSERT INTO bot_support_replies (id, ticket_id, platform, chat_id, text, operator_id, created_at, attempts)
         VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, 0) RETURNING *`,
        [newId("rpl"), ticketId, ticket.platform, ticket.chat_id, text, operatorId, at.toISOString()],
      )) as BotSupportReplyRow[];
      if (ticket.status === "open") await m.query(`UPDATE bot_support_tickets SET status = 'answered', answered_at = $2::timestamptz WHERE id = $1`, [ticketId, at.toISOString()]);
      if (!row) throw new Error("support reply insert returned no row");
      return toReply(row);
    });
  }
}

function toSummary(r: TicketRow): TicketSummary {
  return {
    id: r.id, platform: r.platform, chatId: r.chat_id, userId: r.user_id, topic: r.topic, text: r.text, openedAt: iso(r.opened_at),
    status: r.status, answeredAt: isoOrNull(r.answered_at), replyCount: Number(r.reply_count),
  };
}

function toReply(r: BotSupportReplyRow): TicketReply {
  return {
    id: r.id, text: r.text, operatorId: r.operator_id, createdAt: iso(r.created_at),
    delivery: r.delivered_at !== null ? "delivered" : r.failed_at !== null ? "failed" : "pending",
    deliveredAt: isoOrNull(r.delivered_at), attempts: Number(r.attempts), lastError: r.last_error,
  };
}
