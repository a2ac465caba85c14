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

/** Counters only: never what a message said. */
export interface StatsStore {
  add(chatId: string, counter: StatCounter, by?: number): Promise<void>;
  get(chatId: string): Promise<Stats>;
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

export interface SupportDesk {
  open(ticket: SupportTicket): Promise<{ readonly id: string }>;
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
