import type { SupportDesk, SupportInbox, SupportReplyToSend, SupportTicket, TicketDetail, TicketPosition, TicketReply, TicketStatus, TicketSummary } from "./ports.js";

interface StoredReply {
  id: string;
  ticketId: string;
  platform: string;
  chatId: string;
  text: string;
  operatorId: string;
  createdAt: string;
  claimedUntil: number | null;
  attempts: number;
  deliveredAt: string | null;
  failedAt: string | null;
  lastError: string | null;
}

type StoredTicket = SupportTicket & { readonly id: string; status: TicketStatus; answeredAt: string | null };

/** Tickets and operator replies in arrays: for tests and the embedded default. */
export class InMemorySupportDesk implements SupportDesk, SupportInbox {
  readonly tickets: StoredTicket[] = [];
  private readonly replies: StoredReply[] = [];

  async open(ticket: SupportTicket): Promise<{ readonly id: string }> {
    const id = `T-${String(this.tickets.length + 1).padStart(5, "0")}`;
    this.tickets.push({ ...ticket, id, status: "open", answeredAt: null });
    return { id };
  }

  async claimReplies(platform: string, now: Date, leaseMs: number, limit: number): Promise<readonly SupportReplyToSend[]> {
    const t = now.getTime();
    const due = this.replies.filter((r) => r.platform === platform && r.deliveredAt === null && r.failedAt === null && (r.claimedUntil === null || r.claimedUntil <= t)).slice(0, limit);
    for (const r of due) {
      r.claimedUntil = t + leaseMs;
      r.attempts++;
    }
    return due.map((r) => ({ id: r.id, ticketId: r.ticketId, chatId: r.chatId, text: r.text, attempts: r.attempts }));
  }

  async delivered(replyId: string, at: Date): Promise<void> {
    const r = this.replies.find((x) => x.id === replyId);
    if (r && r.deliveredAt === null) r.deliveredAt = at.toISOString();
  }

  async deliveryFailed(replyId: string, error: string, at: Date, final: boolean): Promise<void> {
    const r = this.replies.find((x) => x.id === replyId);
    if (!r || r.deliveredAt !== null) return;
    r.lastError = error.slice(0, 500);
    r.claimedUntil = null;
    if (final) r.failedAt = at.toISOString();
  }

  async list(query: { readonly status?: TicketStatus; readonly limit: number; readonly after?: TicketPosition | null }): Promise<readonly TicketSummary[]> {
    const after = query.after;
    return [...this.tickets]
      .sort((a, b) => (a.openedAt === b.openedAt ? (a.id < b.id ? -1 : 1) : a.openedAt < b.openedAt ? -1 : 1))
      .filter((t) => (query.status === undefined || t.status === query.status) && (!after || t.openedAt > after.openedAt || (t.openedAt === after.openedAt && t.id > after.id)))
      .slice(0, query.limit)
      .map((t) => this.summary(t));
  }

  async get(id: string): Promise<TicketDetail | null> {
    const t = this.tickets.find((x) => x.id === id);
    return t ? { ...this.summary(t), replies: this.replies.filter((r) => r.ticketId === id).map(toReply) } : null;
  }

  async reply(ticketId: string, text: string, operatorId: string, at: Date): Promise<TicketReply | null> {
    const t = this.tickets.find((x) => x.id === ticketId);
    if (!t) return null;
    const r: StoredReply = {
      id: `R-${String(this.replies.length + 1).padStart(5, "0")}`, ticketId, platform: t.platform, chatId: t.chatId, text, operatorId, createdAt: at.toISOString(),
      claimedUntil: null, attempts: 0, deliveredAt: null, failedAt: null, lastError: null,
    };
    this.replies.push(r);
    if (t.status === "open") {
      t.status = "answered";
      t.answeredAt = at.toISOString();
    }
    return toReply(r);
  }

  private summary(t: StoredTicket): TicketSummary {
    const { id, platform, chatId, userId, topic, text, openedAt, status, answeredAt } = t;
    return { id, platform, chatId, userId, topic, text, openedAt, status, answeredAt, replyCount: this.replies.filter((r) => r.ticketId === id).length };
  }
}

function toReply(r: StoredReply): TicketReply {
  return {
    id: r.id, text: r.text, operatorId: r.operatorId, createdAt: r.createdAt,
    delivery: r.deliveredAt !== null ? "delivered" : r.failedAt !== null ? "failed" : "pending",
    deliveredAt: r.deliveredAt, attempts: r.attempts, lastError: r.lastError,
  };
}
