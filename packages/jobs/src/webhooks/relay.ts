import { randomUUID } from "node:crypto";
import type { Clock } from "@svc/core";
import type { WebhookSecretStore } from "@svc/server-ports";
import { webhookDeliveries } from "@svc/metrics";
import type { DataSource } from "typeorm";
import { silentLog, type LogSink } from "../log.js";
import { IDLE_SLEEP_MS } from "../queue/consumers.js";
import { rowsOf, valuesList } from "../sql.js";
import type { Deliverer, DeliveryOutcome } from "./http-deliverer.js";
import { nextAttemptAt } from "./retry-schedule.js";
import { signedHeaders } from "./signing.js";

export interface RelayOptions {
  readonly ds: DataSource;
  readonly secrets: WebhookSecretStore;
  readonly deliverer: Deliverer;
  readonly clock: Clock;
  readonly logger?: LogSink;
  /** Who holds a claimed message's lease; unique per relay. */
  readonly ownerId?: string;
  /** Messages claimed per round trip; default 100. */
  readonly batchSize?: number;
  /** Deliveries in flight at once; default 256. */
  readonly maxInFlight?: number;
  /** How long a claimed message is ours; longer than the delivery timeout. Default 60 s. */
  readonly leaseMs?: number;
  /**
   * How often an idle relay looks for due retries; default 1 s. With `singleProcess` an idle relay
   * instead sleeps until the next attempt is due (at most 30 s): new messages wake it.
   */
  readonly pollIntervalMs?: number;
  /** In [0, 1): jitter of the retry schedule. */
  readonly random?: () => number;
  /** Results are gathered this long before they are written together; default 5 ms. */
  readonly flushDelayMs?: number;
  /** After a claim that was not full, the next one waits this long (messages arriving one by one are claimed together); default 10 ms. */
  readonly gatherMs?: number;
  /** The database is this process's alone (PGlite): leases found at start belong to a dead process and are released. */
  readonly singleProcess?: boolean;
}

interface MessageRow {
  id: string;
  job_id: string;
  account_id: string;
  url: string;
  event_type: string;
  body: string;
  attempts: number;
  created_at: Date;
  endpoint_disabled_at: Date | null;
}

interface Result {
  readonly id: string;
  readonly status: "pending" | "delivered" | "failed" | "disabled";
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly attempt: null | { readonly number: number; readonly startedAt: Date; readonly outcome: DeliveryOutcome };
  readonly deliveredAt: Date | null;
  /** A 410 disables (account, url). */
  readonly disable: null | { readonly accountId: string; readonly url: string; readonly at: Date };
}

/**
 * Delivers the webhook outbox: claims due messages with a lease (FOR UPDATE SKIP LOCKED, so any
 * number of relays in any number of processes share the work), signs each attempt with the
 * account's current secrets, records every attempt, and reschedules failures along the retry
 * schedule. A relay that dies leaves its leases to expire; the message is then delivered again
 * with the same webhook-id, which receivers use to drop duplicates.
 */
export class WebhookRelay {
  private readonly log: LogSink;
  private readonly owner: string;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly random: () => number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private readonly inFlight = new Set<Promise<void>>();
  private pending: Result[] = [];
  private flushing: Promise<void> | null = null;
  private nextFlush: Promise<void> | null = null;
  private readonly flushDelayMs: number;
  private readonly gatherMs: number;

  constructor(private readonly o: RelayOptions) {
    this.log = o.logger ?? silentLog;
    this.owner = o.ownerId ?? `relay-${randomUUID()}`;
    this.batchSize = o.batchSize ?? 100;
    this.maxInFlight = o.maxInFlight ?? 256;
    this.leaseMs = o.leaseMs ?? 60_000;
    this.pollMs = o.pollIntervalMs ?? 1_000;
    this.random = o.random ?? Math.random;
    this.flushDelayMs = o.flushDelayMs ?? 5;
    this.gatherMs = o.gatherMs ?? 10;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (this.o.singleProcess ? this.releaseAll() : Promise.resolve()).then(() => this.run());
  }

  private async releaseAll(): Promise<void> {
    await rowsOf(this.o.ds, `UPDATE webhook_messages SET locked_until = NULL, locked_by = NULL WHERE status = 'pending' AND locked_by IS NOT NULL`)
      .catch((e: unknown) => this.log.error({ err: e }, "releasing webhook leases of a previous run failed"));
  }

  /** New messages were committed: look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Delivers everything due now and waits until it is recorded; returns the number of messages
   * handled. Tests drive the schedule with it and a fake clock.
   */
  async runDue(): Promise<number> {
    let handled = 0;
    for (;;) {
      const claimed = await this.claim(this.batchSize);
      if (claimed.length === 0) break;
      handled += claimed.length;
      await this.dispatch(claimed);
      await Promise.all([...this.inFlight]);
    }
    await this.flush();
    return handled;
  }

  /** Stops claiming, waits up to `timeoutMs` for deliveries in flight, records them, releases the rest. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.inFlight]), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    await this.flush().catch((e: unknown) => this.log.error({ err: e }, "recording webhook attempts failed at shutdown"));
    await rowsOf(this.o.ds, `UPDATE webhook_messages SET locked_until = NULL, locked_by = NULL WHERE locked_by = $1 AND status = 'pending'`, [this.owner])
      .catch((e: unknown) => this.log.error({ err: e }, "releasing webhook leases failed"));
  }

  private async run(): Promise<void> {
    let lastClaim = 0;
    let lastFull = false;
    while (this.running) {
      try {
        const room = this.maxInFlight - this.inFlight.size;
        if (room <= 0) {
          await Promise.race([...this.inFlight]);
          continue;
        }
        // Messages committed one by one each wake the relay: gather them for a moment into one claim.
        const since = performance.now() - lastClaim;
        if (!lastFull && since < this.gatherMs) await new Promise((r) => setTimeout(r, this.gatherMs - since));
        this.woken = false;
        lastClaim = performance.now();
        const limit = Math.min(room, this.batchSize);
        const claimed = await this.claim(limit);
        lastFull = claimed.length >= limit;
        await this.dispatch(claimed);
        if (claimed.length > 0) continue;
      } catch (e) {
        this.log.error({ err: e }, "webhook relay: claiming failed");
      }
      // Decided before looking at `woken`: a message committed meanwhile wakes the relay.
      const wait = await this.idleWait();
      if (this.running && !this.woken) await this.sleep(wait);
    }
  }

  /**
   * How long the relay sleeps when nothing is due: the poll interval; with `singleProcess`, until
   * the next attempt is due (at most IDLE_SLEEP_MS), since every message this process commits
   * wakes it and no other process writes the database (decision 0108).
   */
  private async idleWait(): Promise<number> {
    if (!this.o.singleProcess) return this.pollMs;
    try {
      const [row] = await rowsOf<{ due: Date | string | null }>(this.o.ds,
        `SELECT min(GREATEST(next_attempt_at, COALESCE(locked_until, next_attempt_at))) AS due FROM webhook_messages WHERE status = 'pending'`);
      if (row?.due == null) return IDLE_SLEEP_MS;
      const ms = new Date(row.due).getTime() - this.o.clock.now().getTime();
      return ms <= 0 ? this.pollMs : Math.min(IDLE_SLEEP_MS, ms + 5);
    } catch (e) {
      this.log.error({ err: e }, "webhook relay: reading when the next attempt is due failed");
      return this.pollMs;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }

  private async claim(limit: number): Promise<MessageRow[]> {
    if (limit <= 0) return [];
    const now = this.o.clock.now();
    return rowsOf<MessageRow>(this.o.ds,
      `UPDATE webhook_messages m SET locked_until = $2::timestamptz, locked_by = $3
        WHERE m.id IN (
          SELECT id FROM webhook_messages
           WHERE status = 'pending' AND next_attempt_at <= $1::timestamptz AND (locked_until IS NULL OR locked_until <= $1::timestamptz)
           ORDER BY next_attempt_at
           LIMIT $4
           FOR UPDATE SKIP LOCKED)
      RETURNING m.id, m.job_id, m.account_id, m.url, m.event_type, m.body, m.attempts, m.created_at,
        (SELECT e.disabled_at FROM webhook_endpoints e WHERE e.account_id = m.account_id AND e.url = m.url) AS endpoint_disabled_at`,
      [now, new Date(now.getTime() + this.leaseMs), this.owner, limit]);
  }

  private async dispatch(messages: readonly MessageRow[]): Promise<void> {
    if (messages.length === 0) return;
    const now = this.o.clock.now();
    const secrets = await this.o.secrets.signingSecrets(messages.map((m) => m.account_id), now);
    for (const m of messages) {
      const p: Promise<void> = this.deliverOne(m, secrets.get(m.account_id))
        .then((r) => this.record(r))
        .catch((e: unknown) => this.log.error({ err: e, message_id: m.id }, "webhook delivery crashed"))
        .finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  private async deliverOne(m: MessageRow, signing: string[] | undefined): Promise<Result> {
    const startedAt = this.o.clock.now();
    const disabledAt = m.endpoint_disabled_at ? new Date(m.endpoint_disabled_at) : null;
    if (disabledAt && disabledAt.getTime() >= new Date(m.created_at).getTime()) {
      return { id: m.id, status: "disabled", attempts: m.attempts, nextAttemptAt: null, attempt: null, deliveredAt: null, disable: null };
    }
    const secrets = signing ?? [(await this.o.secrets.current(m.account_id, startedAt)).secret];
    const outcome = await this.o.deliverer.deliver({ url: m.url, headers: { ...signedHeaders(secrets, m.id, startedAt, m.body) }, body: m.body });
    webhookDeliveries.inc({ outcome: outcome.kind });
    const number = m.attempts + 1;
    const finishedAt = this.o.clock.now();
    const attempt = { number, startedAt, outcome };
    if (outcome.kind === "delivered") {
      return { id: m.id, status: "delivered", attempts: number, nextAttemptAt: null, attempt, deliveredAt: finishedAt, disable: null };
    }
    if (outcome.kind === "gone") {
      this.log.warn({ message_id: m.id, account_id: m.account_id }, "webhook endpoint answered 410 Gone: disabled");
      return { id: m.id, status: "disabled", attempts: number, nextAttemptAt: null, attempt, deliveredAt: null, disable: { accountId: m.account_id, url: m.url, at: finishedAt } };
    }
    const next = nextAttemptAt(number, finishedAt, this.random(), outcome.retryAfterMs);
    return { id: m.id, status: next ? "pending" : "failed", attempts: number, nextAttemptAt: next, attempt, deliveredAt: null, disable: null };
  }

  /**
   * Results are written in groups: one transaction for every result that arrived within a few
   * milliseconds (and while the previous group was being written). On PGlite every statement
   * runs on this thread, so fewer, larger transactions also leave more time for the HTTP traffic.
   */
  private record(r: Result): Promise<void> {
    this.pending.push(r);
    this.nextFlush ??= new Promise<void>((resolve) => setTimeout(() => {
      this.nextFlush = null;
      this.flush().then(resolve, resolve);
    }, this.flushDelayMs));
    return this.nextFlush;
  }

  private async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const group = this.pending.splice(0, 500);
    this.flushing = this.write(group)
      // A message rescheduled (or released) is due at a time the sleeping relay did not know: it looks again.
      .then(() => {
        if (this.o.singleProcess && group.some((r) => r.status === "pending")) this.wake();
      })
      // The messages stay leased to us; when the lease runs out they are delivered again.
      .catch((e: unknown) => this.log.error({ err: e, messages: group.length }, "recording webhook attempts failed"))
      .finally(() => (this.flushing = null));
    await this.flushing;
    if (this.pending.length > 0) await this.flush();
  }

  private async write(group: readonly Result[]): Promise<void> {
    await this.o.ds.transaction(async (m) => {
      const attempts = group.filter((r) => r.attempt);
      if (attempts.length > 0) {
        const v = valuesList(attempts.map((r) => {
          const a = r.attempt!;
          return [r.id, a.number, a.startedAt, a.outcome.durationMs, a.outcome.kind, a.outcome.statusCode, a.outcome.error];
        }), ["text", "int", "timestamptz", "int", "text", "int", "text"]);
        await rowsOf(m, `INSERT INTO webhook_attempts (message_id, attempt, started_at, duration_ms, outcome, status_code, error) VALUES ${v.sql} ON CONFLICT DO NOTHING`, v.params);
      }
      const v = valuesList(group.map((r) => [
        r.id, r.status, r.attempts, r.nextAttemptAt, r.attempt?.startedAt ?? null, r.attempt?.outcome.statusCode ?? null,
        r.attempt?.outcome.error ?? null, r.deliveredAt, r.attempt ? 1 : 0,
      ]), ["text", "text", "int", "timestamptz", "timestamptz", "int", "text", "timestamptz", "int"]);
      await rowsOf(m,
        `UPDATE webhook_messages m SET status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at,
            last_attempt_at = CASE WHEN v.tried = 1 THEN v.last_attempt_at ELSE m.last_attempt_at END,
            last_status_code = CASE WHEN v.tried = 1 THEN v.last_status_code ELSE m.last_status_code END,
            last_error = CASE WHEN v.tried = 1 THEN v.last_error ELSE m.last_error END,
            delivered_at = v.delivered_at, locked_until = NULL, locked_by = NULL
          FROM (VALUES ${v.sql}) AS v(id, status, attempts, next_attempt_at, last_attempt_at, last_status_code, last_error, delivered_at, tried)
         WHERE m.id = v.id AND m.locked_by = $${v.params.length + 1}`,
        [...v.params, this.owner]);
      const disables = [...new Map(group.flatMap((r) => (r.disable ? [[`${r.disable.accountId} ${r.disable.url}`, r.disable] as const] : []))).values()];
      if (disables.length > 0) {
        const d = valuesList(disables.map((x) => [x.accountId, x.url, x.at, "410 Gone"]), ["text", "text", "timestamptz", "text"]);
        await rowsOf(m, `INSERT INTO webhook_endpoints (account_id, url, disabled_at, reason) VALUES ${d.sql}
          ON CONFLICT (account_id, url) DO UPDATE SET disabled_at = EXCLUDED.disabled_at, reason = EXCLUDED.reason`, d.params);
      }
    });
  }
}
