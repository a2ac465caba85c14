// The fault scenarios of tools/soak in a bounded form (the long forms: `npm run soak -- <scenario>`).
// They need a PostgreSQL server to talk to (TEST_DATABASE_URL) and this machine's PostgreSQL
// server binaries (initdb, pg_ctl) for a private instance that can be stopped.
import { describe, expect, it } from "vitest";
import { databaseOutage } from "./database-outage.js";
import { postgresBinaries } from "./support.js";
import { workerKill } from "./worker-kill.js";

const why = !process.env.TEST_DATABASE_URL ? "TEST_DATABASE_URL is not set" : !postgresBinaries() ? "no PostgreSQL server binaries under /usr/lib/postgresql (initdb, pg_ctl)" : null;
if (why) console.warn(`tools/soak fault scenarios skipped: ${why}`);

describe.skipIf(why !== null)("faults under load (bounded)", () => {
  it("a PostgreSQL restart, then a network blackhole: 503 service.unavailable while down, 2xx again within 10 s, every 2xx stored, chain intact", { timeout: 60_000 }, async () => {
    // 6 s down: longer than the 5 s connect limit, so the blackhole shows as 503s too.
    const r = await databaseOutage({ mode: ["restart", "blackhole"], downSeconds: 6, warmSeconds: 1, afterSeconds: 2.5, concurrency: 6, quiet: true });
    expect(r.other).toEqual([]);
    expect(r.unavailable503).toBeGreaterThan(0);
    expect(r.ok2xx).toBeGreaterThan(0);
    expect(r.recoveryMs).toBeLessThanOrEqual(10_000);
    expect(r.missing).toBe(0);
    expect(r.chain).toMatch(/^intact/);
    expect(r.apiRestarted).toBe(false);
  });

  it("the worker SIGKILLed while it holds jobs: none lost, none doubled, every webhook delivered with one webhook-id", { timeout: 60_000 }, async () => {
    const r = await workerKill({ kills: 2, perRound: 4, lease: 1, finishers: 1, quiet: true });
    expect(r.killedMidRun).toBeGreaterThan(0);
    expect(r).toMatchObject({ lost: 0, doubled: 0, undelivered: 0, webhookIdsChanged: 0, ok: true });
  });
});
