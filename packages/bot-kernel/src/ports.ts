import type { Clock, EntityType, Verdict } from "@svc/core";
import type { ChatUser } from "./chat-port.js";
import type { ChatSettings } from "./settings.js";

export type { Clock };

export type ScreenOutcome = Verdict | { readonly error: { readonly code: string; readonly message: string } };

/** The screening engine as the bots see it: one entity value in, a verdict or an error out. */
export interface ScreeningPort {
  screen(value: string): Promise<ScreenOutcome>;
}

export const isVerdict = (o: ScreenOutcome): o is Verdict => !("error" in o);

export const REPORT_CATEGORIES = ["phishing", "scam", "impersonation", "malware", "spam", "fraud", "drainer", "other"] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];
export type ReportFeedback = "false_positive" | "false_negative";

/** A community report as the bots file it; the API's report store implements the sink. */
export interface CommunityReport {
  readonly entity: { readonly type: EntityType; readonly value: string; readonly id: string };
  readonly category: ReportCategory;
  readonly feedback?: ReportFeedback;
  readonly reporter: { readonly platform: string; readonly userId: string };
  readonly channel: { readonly platform: string; readonly chatId: string };
  readonly reportedAt: string;
}

export interface ReportSink {
  file(report: CommunityReport): Promise<{ readonly id: string }>;
}

export const STAT_COUNTERS = [
  "messages_scanned",
  "entities_checked",
  "flagged",
  "warnings",
  "deletions",
  "bans",
  "restrictions",
  "lockdowns",
  "reports",
  "checks",
] as const;
export type StatCounter = (typeof STAT_COUNTERS)[number];
export type Stats = Readonly<Record<StatCounter, number>>;

/** One counter increment of a batch. */
export interface StatIncrement {
  readonly chatId: string;
  readonly counter: StatCounter;
  readonly by: number;
}

/** Counters only: never what a message said. */
export interface StatsStore {
  add(chatId: string, counter: StatCounter, by?: number): Promise<void>;
  get(chatId: string): Promise<Stats>;
  /**
   * Optional: many increments in one write (at most one per chat and counter). A store that
   * has it gets its increments batched by the kernel (`StoreBuffers`) instead of one write each.
   */
  addMany?(increments: readonly StatIncrement[]): Promise<void>;
}

export type PlanTier = "free" | "starter" | "pro";

/** Resolves an API key to its account's plan; null for unknown or revoked keys. */
export interface PlanResolver {
  planForKey(key: string): Promise<Exclude<PlanTier, "free"> | "free" | null>;
}

export interface SupportTicket {
  readonly platform: string;
  readonly chatId: string;
  readonly userId: string;
  readonly topic: "general" | "payments";
  /** What the user chose to send to support (not monitored chat content). */
  readonly text: string;
  readonly openedAt: string;
}

/** An operator's answer to a ticket, waiting in the outbox of the ticket's platform. */
export interface SupportReplyToSend {
  readonly id: string;
  readonly ticketId: string;
  /** The chat the ticket was opened in: the answer goes there. */
  readonly chatId: string;
  readonly text: string;
  /** Claims so far, this one included. */
  readonly attempts: number;
}

/** Support as the bots see it: tickets in, and the outbox of operators' answers to deliver. */
export interface SupportDesk {
  open(ticket: SupportTicket): Promise<{ readonly id: string }>;
  /**
   * Up to `limit` operator replies on `platform` not delivered yet, oldest first, each claimed
   * until `now + leaseMs`: no other bot process takes it meanwhile, and a claim never confirmed
   * (a crash) makes it due again once the lease is over.
   */
  claimReplies(platform: string, now: Date, leaseMs: number, limit: number): Promise<readonly SupportReplyToSend[]>;
  /** The reply reached its chat: it is never sent again. */
  delivered(replyId: string, at: Date): Promise<void>;
  /** Sending failed: due again at once, or (`final`) given up, with the error kept for the operator. */
  deliveryFailed(replyId: string, error: string, at: Date, final: boolean): Promise<void>;
}

export type TicketStatus = "open" | "answered";
export type ReplyDelivery = "pending" | "delivered" | "failed";

/** A ticket as an operator lists it. */
export interface TicketSummary extends SupportTicket {
  readonly id: string;
  /** Open until an operator first replies. */
  readonly status: TicketStatus;
  readonly answeredAt: string | null;
  readonly replyCount: number;
}

export interface TicketReply {
  readonly id: string;
  readonly text: string;
  /** The operator account that wrote it. */
  readonly operatorId: string;
  readonly createdAt: string;
  readonly delivery: ReplyDelivery;
  readonly deliveredAt: string | null;
  readonly attempts: number;
  /** Why the last attempt to deliver failed, if it did. */
  readonly lastError: string | null;
}

export interface TicketDetail extends TicketSummary {
  readonly replies: readonly TicketReply[];
}

/** Keyset position in the operator's list: oldest first by `openedAt`, then id. */
export interface TicketPosition {
  readonly openedAt: string;
  readonly id: string;
}

/** Support as an operator works it (the API's `/v1/admin/support`): read tickets, answer them. */
export interface SupportInbox {
  /** Up to `limit` tickets after `after`, oldest first, of one status or all. */
  list(query: { readonly status?: TicketStatus; readonly limit: number; readonly after?: TicketPosition | null }): Promise<readonly TicketSummary[]>;
  get(id: string): Promise<TicketDetail | null>;
  /** Stores an answer for the bot to deliver and marks the ticket answered; null when there is no such ticket. */
  reply(ticketId: string, text: string, operatorId: string, at: Date): Promise<TicketReply | null>;
}

export interface SeenMember extends ChatUser {
  readonly lastSeen: string;
}

/**
 * Platforms cannot list group members (Telegram), so impersonation checks compare the members
 * the bot has seen: ids and names only, bounded per chat.
 */
export interface MemberDirectory {
  /** Remembers a member; answers whether the name or username is new or changed (worth checking). */
  remember(chatId: string, user: ChatUser, at: Date): Promise<boolean>;
  list(chatId: string): Promise<readonly SeenMember[]>;
  findByUsername(chatId: string, username: string): Promise<SeenMember | null>;
  get(chatId: string, userId: string): Promise<SeenMember | null>;
  /**
   * Optional: moves the last-seen time of members already stored (never adds one, never
   * changes a name). A store that has it is told about members seen again under the same name
   * in batches (`StoreBuffers`), instead of one write per message.
   */
  touch?(seen: readonly MemberSeen[]): Promise<void>;
}

/** A member seen again at `at`, for `MemberDirectory.touch`. */
export interface MemberSeen {
  readonly chatId: string;
  readonly userId: string;
  readonly at: Date;
}

/** One in-app purchase (Telegram Stars), keyed by the platform's charge id. */
export interface Payment {
  readonly chargeId: string;
  readonly platform: string;
  readonly userId: string;
  readonly chatId: string;
  readonly plan: Exclude<PlanTier, "free">;
  readonly amount: number;
  readonly currency: string;
  readonly paidAt: string;
  readonly refundedAt: string | null;
}

/**
 * What a payment buys, as a change to its chat's settings: the ledger applies it to the settings
 * of (`payment.platform`, `payment.chatId`) in the transaction that records the payment, so a
 * charge grants its plan exactly once or not at all. It runs inside that transaction, so it must
 * be pure (no I/O). `current` is null for a chat with no settings yet.
 */
export type PlanGrant = (current: ChatSettings | null) => ChatSettings;

export interface PaymentLedger {
  /**
   * Records a payment once and, atomically with it, applies `grant` to the chat's settings.
   * False, and no grant, when the charge id is already known (a redelivered update), also when
   * the same charge arrives twice at once.
   */
  record(payment: Payment, grant?: PlanGrant): Promise<boolean>;
  get(chargeId: string): Promise<Payment | null>;
  /** The user's most recent payment that has not been refunded. */
  latestFor(platform: string, userId: string): Promise<Payment | null>;
  markRefunded(chargeId: string, at: Date): Promise<void>;
  /** Every payment for one chat, refunded ones included, oldest first. */
  forChat(platform: string, chatId: string): Promise<readonly Payment[]>;
}
