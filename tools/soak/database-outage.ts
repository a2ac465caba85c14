/**
 * The database goes away under load and comes back: a PostgreSQL restart (`restart`: the private
 * server is stopped with `-m immediate`, a crash, then started again) or a network blackhole
 * (`blackhole`: a TCP proxy between API and database stops forwarding, nothing is refused).
 * Checks: every answer is a 2xx or a 503 problem+json `service.unavailable` with Retry-After (no
 * 500, no dropped connection); the API answers 2xx again within 10 s of the database returning
 * without being restarted; every check that got a 2xx is stored and the audit chain verifies.
 */
import { HmacAuditKeyring, openDataSource, TypeOrmCheckRepository } from "@svc/persistence";
import { closedLoop, line, percentile, privatePostgres, request, sleep, SOAK_AUDIT_KEY, startApi, stopApi, tcpProxy, type Answer } from "./support.js";

export interface OutageOptions {
  /** One fault, or several in turn on the same API (each: down, back, `afterSeconds` of load). */
  readonly mode: Fault | readonly Fault[];
  /** How long the database is gone (s). */
  readonly downSeconds: number;
  /** Load before the fault and after the database returns (s). */
  readonly warmSeconds?: number;
  readonly afterSeconds?: number;
  readonly concurrency?: number;
  readonly quiet?: boolean;
}

type Fault = "restart" | "blackhole";

export interface OutageResult {
  readonly ok: boolean;
  readonly requests: number;
  readonly ok2xx: number;
  readonly unavailable503: number;
  /** Answers that are neither 2xx nor a proper 503 (status 0: the connection failed). */
  readonly other: { status: number; body: string }[];
  /** From the database being back to the first request of the run of 2xx that lasts to the next fault or the end (ms; the worst fault). */
  readonly recoveryMs: number;
  readonly missing: number;
  readonly chain: string;
  readonly apiRestarted: boolean;
  readonly p99DownMs: number;
}

const ADMIN_ACCOUNT = "acc_admin";
const RECOVERY_BUDGET_MS = 10_000;

export async function databaseOutage(o: OutageOptions): Promise<OutageResult> {
  const pg = await privatePostgres();
  const proxy = await tcpProxy(pg.port);
  const url = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
  const log = o.quiet ? () => {} : (s: string) => console.log(s);
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  try {
    api = await startApi({ url });
    const port = api.port;
    const answers: (Answer & { sentAt: number })[] = [];
    const load = closedLoop(o.concurrency ?? 8, async (n) => {
      const sentAt = performance.now();
      const a = await request(port, "POST", "/v1/screen", { entity_value: `shop-${n}.outage-soak.com` }, {}, 60_000);
      answers.push({ ...a, sentAt });
      // A client honouring Retry-After would wait; a short pause keeps the loop from spinning on 503s.
      if (a.status !== 200) await sleep(100);
    });
    await sleep((o.warmSeconds ?? 3) * 1000);
    const faults = typeof o.mode === "string" ? [o.mode] : o.mode;
    const phases: { downAt: number; backAt: number; endAt: number }[] = [];
    for (const fault of faults) {
      const downAt = performance.now();
      if (fault === "restart") pg.stop("immediate");
      else proxy.blackhole();
      log(`${fault}: database gone at +${((downAt - answers[0]!.sentAt) / 1000).toFixed(1)} s for ${o.downSeconds} s`);
      await sleep(o.downSeconds * 1000);
      if (fault === "restart") pg.start();
      else proxy.restore();
      const backAt = performance.now();
      log(`${fault}: database back`);
      await sleep((o.afterSeconds ?? 12) * 1000);
      phases.push({ downAt, backAt, endAt: performance.now() });
    }
    await load.stop();
    const apiRestarted = api.child.exitCode !== null;
    if (apiRestarted) console.log("API OUTPUT:", api.output().slice(-4000));

    const good = answers.filter((a) => a.status >= 200 && a.status < 300);
    const proper503 = (a: Answer) => {
      if (a.status !== 503 || !String(a.headers["content-type"]).startsWith("application/problem+json") || !a.headers["retry-after"]) return false;
      try {
        const b = JSON.parse(a.body) as { code?: string; retryable?: boolean };
        return b.code === "service.unavailable" && b.retryable === true;
      } catch {
        return false;
      }
    };
    const unavailable = answers.filter(proper503);
    const other = answers.filter((a) => !(a.status >= 200 && a.status < 300) && !proper503(a)).map((a) => ({ status: a.status, body: a.body.slice(0, 200) }));
    // Recovery, per fault: the first request sent after the database returned from which on every answer up to the next fault is a 2xx.
    const is2xx = (a: Answer) => a.status >= 200 && a.status < 300;
    let recoveryMs = 0;
    const duringDown: number[] = [];
    for (const ph of phases) {
      const window = answers.filter((a) => a.sentAt >= ph.downAt && a.sentAt < ph.endAt).sort((a, b) => a.sentAt - b.sentAt);
      let lastBad = -1;
      window.forEach((a, i) => {
        if (!is2xx(a)) lastBad = i;
      });
      const firstGood = window[lastBad + 1];
      recoveryMs = Math.max(recoveryMs, firstGood ? Math.max(0, firstGood.sentAt - ph.backAt) : Infinity);
      duringDown.push(...window.filter((a) => a.sentAt < ph.backAt).map((a) => a.ms));
    }
    // Every 2xx is stored (history and audit are the checks table and its chain).
    const ids = good.map((a) => (JSON.parse(a.body) as { id: string }).id);
    const ds = await openDataSource({ url: pg.url });
    let missing = -1;
    let chain = "";
    try {
      const rows = (await ds.query(`SELECT count(DISTINCT id)::int AS n FROM checks WHERE id = ANY($1)`, [ids])) as { n: number }[];
      missing = ids.length - (rows[0]?.n ?? 0);
      const v = await new TypeOrmCheckRepository(ds, new HmacAuditKeyring(SOAK_AUDIT_KEY)).verifyChain(ADMIN_ACCOUNT);
      chain = v.ok ? `intact (${v.checked} records)` : `BROKEN ${JSON.stringify(v)}`;
    } finally {
      await ds.destroy();
    }
    const result: OutageResult = {
      ok: other.length === 0 && unavailable.length > 0 && good.length > 0 && recoveryMs <= RECOVERY_BUDGET_MS && missing === 0 && chain.startsWith("intact") && !apiRestarted,
      requests: answers.length, ok2xx: good.length, unavailable503: unavailable.length, other, recoveryMs, missing, chain, apiRestarted, p99DownMs: percentile(duringDown, 99),
    };
    if (!o.quiet) report(o, result);
    return result;
  } finally {
    if (api) await stopApi(api, "SIGKILL");
    await proxy.close();
    pg.destroy();
  }
}

function report(o: OutageOptions, r: OutageResult): void {
  line(`scenario`, `${[o.mode].flat().join(" then ")}, database gone ${o.downSeconds} s, ${o.concurrency ?? 8} connections`);
  line("requests answered", r.requests);
  line("2xx", r.ok2xx);
  line("503 service.unavailable (problem+json, Retry-After)", r.unavailable503);
  line("anything else (500, dropped connection, …)", `${r.other.length}${r.other.length ? ` e.g. ${JSON.stringify(r.other.slice(0, 3))}` : ""}`);
  line("p99 latency of requests sent while down", `${r.p99DownMs.toFixed(0)} ms`);
  line("recovery after the database returned", `${(r.recoveryMs / 1000).toFixed(2)} s (budget 10 s, API not restarted: ${!r.apiRestarted})`);
  line("2xx checks missing from history/audit", r.missing);
  line("audit chain", r.chain);
  line("result", r.ok ? "PASS" : "FAIL");
}
