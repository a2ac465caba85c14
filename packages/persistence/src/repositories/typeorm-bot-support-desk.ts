import { randomBytes } from "node:crypto";
import type { SupportDesk, SupportTicket } from "@svc/bot-kernel";
import type { DataSource } from "typeorm";

/** Crockford's base32: no I, L, O or U, so an id read aloud or retyped survives. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `T-` and 8 random characters (40 bits): short enough to quote, no counter to share between processes. */
export function ticketId(): string {
  const bytes = randomBytes(8);
  let id = "T-";
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}

/** Support tickets in `bot_support_tickets`: what the user chose to send to support, with who and where. */
export class TypeOrmBotSupportDesk implements SupportDesk {
  constructor(private readonly ds: DataSource) {}

  async open(ticket: SupportTicket): Promise<{ readonly id: string }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const rows = (await this.ds.manager.query(
        `INSERT INTO bot_support_tickets (id, platform, chat_id, user_id, topic, text, opened_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [ticketId(), ticket.platform, ticket.chatId, ticket.userId, ticket.topic, ticket.text, ticket.openedAt],
      )) as { id: string }[];
      if (rows[0]) return { id: rows[0].id };
    }
    throw new Error("could not allocate a support ticket id");
  }
}
