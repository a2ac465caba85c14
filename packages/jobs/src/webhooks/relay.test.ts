import { randomUUID } from "node:crypto";
import { fixedClock, type TestClock } from "@svc/testing";
import { Webhook } from "standardwebhooks";
import type { DataSource } from "typeorm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "../sql.js";
import { countingQueries, ENGINES, openTestDb, startReceiver, type Receiver, type TestDb } from "../test-support.js";
import { createHttpDeliverer, DELIVERY_TIMEOUT_MS, type Deliverer } from "./http-deliverer.js";
import { WebhookRelay } from "./relay.js";
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from "./retry-schedule.js";
import { AddressPolicy } from "./ssrf.js";
import { TypeOrmWebhookSecretStore } from "./typeorm-webhook-secret-store.js";

const policy = new AddressPolicy("127.0.0.1/32");

async function insertMessage(ds: DataSource, m: { accountId: string; url: string; at: Date; body?: string }): Promise<string> {
  const id = `msg_${randomUUID().replaceAll("-", "")}`;
  await rowsOf(ds,
    `INSERT INTO webhook_messages (id, job_id, account_id, url, event_type, body, status, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, 'screen.completed', $5, 'pending', $6::timestamptz, $6::timestamptz)`,
    [id, `job_${randomUUID()}`, m.accountId, m.url, m.body ?? JSON.stringify({ type: "screen.completed", data: { n: id } }), m.at]);
  return id;
}

const messageRow = async (ds: DataSource, id: string) =>
  (await rowsOf<{ status: string; attempts: number; next_attempt_at: Date | null; last_status_code: number | null }>(ds, `SELECT status, attempts, next_attempt_at, last_status_code FROM webhook_messages WHERE id = $1`, [id]))[0];
const attemptsOf = (ds: DataSource, id: string) =>
  rowsOf<{ attempt: number; started_at: Date; outcome: string; status_code: number | null }>(ds, `SELECT attempt, started_at, outcome, status_code FROM webhook_attempts WHERE message_id = $1 ORDER BY attempt`, [id]);

describe.each(ENGINES)("webhook relay on %s", (engine) => {
  let db: TestDb;
  let receiver: Receiver;
  let other: Receiver;
  let deliverer: Deliverer;
  const secrets = () => new TypeOrmWebhookSecretStore(db.ds);
  beforeAll(async () => {
    db = await openTestDb(engine);
    receiver = await startReceiver();
    other = await startReceiver();
    deliverer = createHttpDeliverer({ policy });
  }, 120_000);
  afterAll(async () => {
    deliverer?.close();
    await receiver?.close();
    await other?.close();
    await db?.close();
  });
  afterEach(() => {
    receiver.answer((_q, res) => {
      res.statusCode = 204;
      res.end();
    });
    receiver.received.length = 0;
    other.received.length = 0;
  });
  const relayAt = (clock: TestClock, extra: Partial<ConstructorParameters<typeof WebhookRelay>[0]> = {}) =>
    new WebhookRelay({ ds: db.ds, secrets: secrets(), deliverer, clock, random: () => 0, ...extra });

  it("delivers 1,000 webhooks that all verify with the reference verifier (standardwebhooks)", async () => {
    const account = `acc_${randomUUID()}`;
    const secret = (await secrets().current(account, new Date())).secret;
    const ids = new Set<string>();
    for (let i = 0; i < 1_000; i += 100) {
      await db.ds.transaction(async (m) => {
        for (let k = i; k < i + 100; k++) ids.add(await insertMessage(m as unknown as DataSource, { accountId: account, url: `${receiver.url}?n=${k}`, at: new Date(), body: JSON.stringify({ type: "screen.completed", data: { k, text: `é ü ✓ ${"x".repeat(k % 50)}` } }) }));
      });
    }
    const relay = new WebhookRelay({ ds: db.ds, secrets: secrets(), deliverer, clock: { now: () => new Date() } });
    relay.start();
    relay.wake();
    const end = Date.now() + 60_000;
    while (receiver.received.length < 1_000 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await relay.stop(5_000);
    expect(receiver.received).toHaveLength(1_000);
    const wh = new Webhook(secret);
    let verified = 0;
    for (const r of receiver.received) {
      wh.verify(r.body, r.headers);
      verified++;
      expect(r.headers["content-type"]).toBe("application/json");
    }
    expect(verified).toBe(1_000);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(ids);
    const [{ delivered }] = await rowsOf<{ delivered: string }>(db.ds, `SELECT count(*)::text AS delivered FROM webhook_messages WHERE account_id = $1 AND status = 'delivered'`, [account]) as [{ delivered: string }];
    expect(Number(delivered)).toBe(1_000);
  }, 120_000);

  it("retries a 500 along the schedule (now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), same webhook-id, every attempt recorded", async () => {
    receiver.answer((_q, res) => {
      res.statusCode = 500;
      res.end("down");
    });
    const clock = fixedClock("2026-11-01T00:00:00Z");
    const t0 = clock.now().getTime();
    const account = `acc_${randomUUID()}`;
    const id = await insertMessage(db.ds, { accountId: account, url: receiver.url, at: clock.now() });
    const relay = relayAt(clock);
    let expected = t0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expected += RETRY_SCHEDULE_MS[attempt - 1] as number;
      clock.set(new Date(expected - 1));
      if (attempt > 1) expect(await relay.runDue()).toBe(0);
      clock.set(new Date(expected));
      expect(await relay.runDue()).toBe(1);
    }
    clock.advance(48 * 3_600_000);
    expect(await relay.runDue()).toBe(0);
    expect(await messageRow(db.ds, id)).toMatchObject({ status: "failed", attempts: 10, last_status_code: 500, next_attempt_at: null });
    const attempts = await attemptsOf(db.ds, id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const offsets = attempts.map((a) => new Date(a.started_at).getTime() - t0);
    expect(offsets).toEqual(RETRY_SCHEDULE_MS.map((_, i) => RETRY_SCHEDULE_MS.slice(0, i + 1).reduce((x, y) => x + y, 0)));
    expect(offsets.at(-1)).toBe(75.5 * 3_600_000 + 5 * 60_000 + 5_000);
    expect(attempts.every((a) => a.outcome === "http_error" && a.status_code === 500)).toBe(true);
    expect(receiver.received).toHaveLength(10);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([id]));
    // Each attempt carries its own timestamp.
    expect(new Set(receiver.received.map((r) => r.headers["webhook-timestamp"])).size).toBe(10);
  }, 60_000);

  it("stretches each delay by at most 10 % of jitter", async () => {
    receiver.answer((_q, res) => {
      res.statusCode = 503;
      res.end();
    });
    const clock = fixedClock("2026-11-02T00:00:00Z");
    const id = await insertMessage(db.ds, { accountId: `acc_${randomUUID()}`, url: receiver.url, at: clock.now() });
    const relay = relayAt(clock, { random: () => 0.999 });
    await relay.runDue();
    const next = new Date((await messageRow(db.ds, id))!.next_attempt_at as Date).getTime() - clock.now().getTime();
    expect(next).toBeGreaterThanOrEqual(5_000);
    expect(next).toBeLessThan(5_500);
  });

  it("honours a Retry-After longer than the schedule's delay", async () => {
    receiver.answer((_q, res) => {
      res.writeHead(429, { "retry-after": "120" });
      res.end();
    });
    const clock = fixedClock("2026-11-02T01:00:00Z");
    const id = await insertMessage(db.ds, { accountId: `acc_${randomUUID()}`, url: receiver.url, at: clock.now() });
    await relayAt(clock).runDue();
    expect(new Date((await messageRow(db.ds, id))!.next_attempt_at as Date).getTime() - clock.now().getTime()).toBe(120_000);
  });

  it("410 Gone disables the endpoint: no more attempts for it, until a later job names it again", async () => {
    receiver.answer((_q, res) => {
      res.statusCode = 410;
      res.end();
    });
    const clock = fixedClock("2026-11-03T00:00:00Z");
    const account = `acc_${randomUUID()}`;
    const url = `${receiver.url}?gone`;
    const first = await insertMessage(db.ds, { accountId: account, url, at: clock.now() });
    const relay = relayAt(clock);
    await relay.runDue();
    expect(await messageRow(db.ds, first)).toMatchObject({ status: "disabled", attempts: 1, last_status_code: 410 });
    expect(await rowsOf(db.ds, `SELECT reason FROM webhook_endpoints WHERE account_id = $1 AND url = $2`, [account, url])).toEqual([{ reason: "410 Gone" }]);
    // A message created before the 410 (e.g. retrying) is not attempted any more...
    const older = await insertMessage(db.ds, { accountId: account, url, at: new Date(clock.now().getTime() - 1_000) });
    receiver.received.length = 0;
    await relay.runDue();
    expect(receiver.received).toHaveLength(0);
    expect(await messageRow(db.ds, older)).toMatchObject({ status: "disabled", attempts: 0 });
    // ...another account's endpoint with the same URL is unaffected, and a newer job re-enables it.
    clock.advance(60_000);
    receiver.answer((_q, res) => {
      res.statusCode = 200;
      res.end();
    });
    const otherAccount = await insertMessage(db.ds, { accountId: `acc_${randomUUID()}`, url, at: clock.now() });
    const newer = await insertMessage(db.ds, { accountId: account, url, at: clock.now() });
    await relay.runDue();
    expect(await messageRow(db.ds, otherAccount)).toMatchObject({ status: "delivered" });
    expect(await messageRow(db.ds, newer)).toMatchObject({ status: "delivered" });
  });

  it("a 302 is a failure and is not followed", async () => {
    receiver.answer((_q, res) => {
      res.writeHead(302, { location: other.url });
      res.end();
    });
    const clock = fixedClock("2026-11-04T00:00:00Z");
    const id = await insertMessage(db.ds, { accountId: `acc_${randomUUID()}`, url: receiver.url, at: clock.now() });
    await relayAt(clock).runDue();
    expect(await messageRow(db.ds, id)).toMatchObject({ status: "pending", attempts: 1, last_status_code: 302 });
    expect((await attemptsOf(db.ds, id))[0]).toMatchObject({ outcome: "redirect", status_code: 302 });
    expect(receiver.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
  });

  it("a receiver that does not answer in time is a failed attempt, retried", async () => {
    receiver.answer(() => {});
    const clock = fixedClock("2026-11-05T00:00:00Z");
    const id = await insertMessage(db.ds, { accountId: `acc_${randomUUID()}`, url: receiver.url, at: clock.now() });
    const quick = createHttpDeliverer({ policy, timeoutMs: 300 });
    try {
      await relayAt(clock, { deliverer: quick }).runDue();
    } finally {
      quick.close();
    }
    expect(await messageRow(db.ds, id)).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect((await attemptsOf(db.ds, id))[0]).toMatchObject({ outcome: "timeout" });
  });

  it("signs with both secrets for 24 h after a rotation, then with the new one only", async () => {
    const account = `acc_${randomUUID()}`;
    const clock = fixedClock(new Date());
    const store = secrets();
    const old = (await store.current(account, clock.now())).secret;
    const rotated = await store.rotate(account, clock.now());
    expect(rotated.secret).not.toBe(old);
    expect(rotated.previous_expires_at).toBe(new Date(clock.now().getTime() + 24 * 3_600_000).toISOString());
    const id = await insertMessage(db.ds, { accountId: account, url: receiver.url, at: clock.now() });
    await relayAt(clock).runDue();
    const hook = receiver.received.find((r) => r.headers["webhook-id"] === id);
    expect(hook?.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    new Webhook(old).verify(hook!.body, hook!.headers);
    new Webhook(rotated.secret).verify(hook!.body, hook!.headers);
    clock.advance(24 * 3_600_000 + 1_000);
    expect((await store.signingSecrets([account], clock.now())).get(account)).toEqual([rotated.secret]);
  });

  it("of a single process sleeps until the next attempt is due, with no statement while nothing is (decision 0108)", async () => {
    // The DataSource, counting the statements sent to it.
    const counting = countingQueries(db.ds);
    // A single process's relay owns the whole outbox: the earlier tests' messages still pending are closed first.
    await rowsOf(db.ds, `UPDATE webhook_messages SET status = 'failed', locked_until = NULL, locked_by = NULL WHERE status = 'pending'`);
    const account = `acc_${randomUUID()}`;
    const id = await insertMessage(db.ds, { accountId: account, url: receiver.url, at: new Date(Date.now() + 700) });
    // A poll interval of a minute: a relay that polled would not deliver it within the test.
    const relay = new WebhookRelay({ ds: counting.ds, secrets: secrets(), deliverer, clock: { now: () => new Date() }, random: () => 0, singleProcess: true, pollIntervalMs: 60_000 });
    const t0 = performance.now();
    relay.start();
    try {
      await vi.waitFor(() => expect(receiver.received.some((r) => r.headers["webhook-id"] === id)).toBe(true), { timeout: 3_000, interval: 20 });
      const took = performance.now() - t0;
      expect(took).toBeGreaterThanOrEqual(600);
      expect(took).toBeLessThan(2_500);
      await vi.waitFor(async () => expect((await messageRow(db.ds, id))?.status).toBe("delivered"), { timeout: 3_000 });
      await new Promise((r) => setTimeout(r, 200));
      const idleFrom = counting.count();
      await new Promise((r) => setTimeout(r, 1_000));
      expect(counting.count() - idleFrom).toBe(0);
    } finally {
      await relay.stop(1_000);
    }
  });
});

describe("delivery timeout", () => {
  it("is 15 s: a silent receiver is given up at 15 s, not before", async () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
    const receiver = await startReceiver();
    receiver.answer(() => {});
    const d = createHttpDeliverer({ policy });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled: string | null = null;
      const p = d.deliver({ url: receiver.url, headers: {}, body: "{}" }).then((o) => (settled = o.kind));
      for (let i = 0; i < 200 && receiver.received.length === 0; i++) await vi.advanceTimersByTimeAsync(0).then(() => new Promise((r) => setImmediate(r)));
      expect(receiver.received).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(14_990);
      expect(settled).toBeNull();
      await vi.advanceTimersByTimeAsync(20);
      await p;
      expect(settled).toBe("timeout");
    } finally {
      vi.useRealTimers();
      d.close();
      await receiver.close();
    }
  });
});
