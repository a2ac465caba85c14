/**
 * The soak mix on PostgreSQL: the API and one worker as real processes on a scratch database,
 * the mix (screen 70 %, batch of 10 10 %, history 10 %, report 5 %, async 4 %, CSV export 1 %)
 * first sent closed-loop by MEASURE_CONNECTIONS clients for `measureSeconds` to measure this
 * machine's capacity for it (answers per second once the mix is steady: see `countedSpan`; the
 * phase also warms the processes), then open-loop for `minutes` at 70 % of that capacity (or at `rate`).
 * Every 5 s: the API's RSS, the database's connection count. Figures of the open-loop phase:
 * error rate, p50/p99 per kind, RSS trend over the last half (MB/min, least squares), connections
 * at the end of the soak vs. the most its first half held. Exports are sent and read on a thread
 * of their own (`exportClient`, decision 0113); one that is not whole counts as an error. PASS: 0 errors in both phases,
 * p99 of screen within the budget (50 ms unless given), RSS growth over the last half ≤ 2 MB/min,
 * connections bounded. `weights` replaces the mix (percentages summing to 100), to see which kind
 * makes a tail.
 */
import { freshDatabase, spawnApp } from "../bench/async/support.js";
import { closedLoop, exportClient, line, percentile, request, rssMb, sleep, slope, SOAK_AUDIT_KEY, startApi, stopApi } from "./support.js";
import { openDataSource } from "@svc/persistence";

export interface MixOptions {
  readonly minutes: number;
  /** Requests per second offered, all kinds together (default: LOAD_SHARE of the measured capacity). */
  readonly rate?: number;
  /** Length of the closed-loop capacity phase before the soak (s; default 30). */
  readonly measureSeconds?: number;
  /** p99 budget of a single screen (ms). */
  readonly p99BudgetMs?: number;
  readonly quiet?: boolean;
  /** The mix, in per cent (default MIX_WEIGHTS). */
  readonly weights?: readonly (readonly [Kind, number])[];
}

export const KINDS = ["screen", "batch", "history", "report", "async", "export"] as const;
export type Kind = (typeof KINDS)[number];
export const MIX_WEIGHTS: readonly (readonly [Kind, number])[] = [["screen", 70], ["batch", 10], ["history", 10], ["report", 5], ["async", 4], ["export", 1]];
/** Clients of the capacity phase: enough to keep both cores busy, as the API benchmark's 50 connections do. */
const MEASURE_CONNECTIONS = 32;
/** An export asks for the checks of this last span. */
const EXPORT_WINDOW_MS = 60_000;
/** How long the capacity phase runs unless told (seconds). */
export const MEASURE_SECONDS = 120;
/** When an export's window has filled, and 10 s more: the first answer counted. */
const SETTLED_MS = EXPORT_WINDOW_MS + 10_000;
/** The shortest phase that counts only steady answers (20 s of them at least). */
const STEADY_PHASE_MS = SETTLED_MS + 20_000;

/**
 * Which part of a capacity phase of `measureMs` is counted (ms from its start). The mix is steady
 * only once an export's window holds a full minute of checks: before that, exports are cheaper
 * and the capacity comes out too high (a soak at 70 % of a 30-second measurement built a backlog
 * without bound). So the answers counted are those after the window has filled, plus 10 s; a
 * phase too short for that counts its last two thirds, and says the figure is not steady.
 */
export function countedSpan(measureMs: number): { from: number; to: number; steady: boolean } {
  return measureMs >= STEADY_PHASE_MS ? { from: SETTLED_MS, to: measureMs, steady: true } : { from: measureMs / 3, to: measureMs, steady: false };
}
/** The soak runs at this share of the measured capacity (issue: 70 %). */
export const LOAD_SHARE = 0.7;
/** After the capacity phase: at most this long for its async backlog to drain, then a pause. */
const DRAIN_LIMIT_MS = 60_000;
const SETTLE_MS = 5_000;

/** `screen:70,batch:10,…` as weights; an error naming what is wrong (an unknown kind, a sum other than 100). */
export function parseWeights(text: string): [Kind, number][] {
  const out = text.split(",").map((part): [Kind, number] => {
    const [kind, w] = part.split(":");
    if (!KINDS.includes(kind as Kind) || !/^\d+$/.test(w ?? "")) throw new Error(`--weights: "${part}" is not kind:percent (kinds: ${KINDS.join(", ")})`);
    return [kind as Kind, Number(w)];
  });
  const sum = out.reduce((a, [, w]) => a + w, 0);
  if (sum !== 100) throw new Error(`--weights: the percentages sum to ${sum}, not 100`);
  return out;
}

/** Whether an export's answer (its first and last bytes, exportClient) starts with the header and ends with a record's CRLF. */
export function exportIsWhole(ends: string): boolean {
  return ends.startsWith("id,created_at,") && ends.endsWith("\r\n");
}

export async function soakMix(o: MixOptions): Promise<{ ok: boolean; capacity: number; rate: number }> {
  const db = await freshDatabase("svc_soak_mix");
  const api = await startApi({ url: db.url });
  const worker = spawnApp("worker", { DATABASE_URL: db.url, SVC_AUDIT_KEY: SOAK_AUDIT_KEY, SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.1/32", LOG_LEVEL: "warn" });
  const probe = await openDataSource({ url: db.url, poolSize: 1 });
  // Exports are sent and read on a thread of their own (exportClient): their megabytes do not
  // delay this thread, which times every other answer.
  const exporter = exportClient();
  try {
    const dbName = new URL(db.url).pathname.slice(1);
    const connections = async () => ((await probe.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1`, [dbName])) as { n: number }[])[0]?.n ?? -1;
    const weights = o.weights ?? MIX_WEIGHTS;
    const lat = new Map<Kind, number[]>(weights.map(([k]) => [k, []]));
    /** Failed answers per phase, by `kind status`. */
    const errors = { measure: new Map<string, number>(), soak: new Map<string, number>() };
    /** Requests sent by the soak (for its rate); `next` numbers every request of both phases, so no entity is sent twice. */
    let sent = 0;
    let next = 0;
    let answered = 0;
    /** Where answers go: the capacity phase counts them, the soak records their latency. */
    let phase: "measure" | "soak" = "measure";
    let measured: number[] = [];
    const pick = (n: number): Kind => {
      let x = (n * 7919) % 100; // a fixed, evenly spread sequence over the weights
      for (const [k, w] of weights) if ((x -= w) < 0) return k;
      return "screen";
    };
    const send = async () => {
      const n = next++;
      const kind = pick(n);
      const inPhase = phase;
      const a = await (kind === "screen" ? request(api.port, "POST", "/v1/screen", { entity_value: `shop-${n}.soak-mix.com` })
        : kind === "batch" ? request(api.port, "POST", "/v1/screen/batch", { entities: Array.from({ length: 10 }, (_, i) => ({ entity_value: `batch-${n}-${i}.soak-mix.com` })) })
        : kind === "history" ? request(api.port, "GET", "/v1/history?limit=50")
        : kind === "report" ? request(api.port, "POST", "/v1/report", { entity_value: `scam-${n % 500}.soak-mix.com`, category: "scam", description: "soak" })
        : kind === "async" ? request(api.port, "POST", "/v1/screen/async", { entity_value: `async-${n}.soak-mix.com` })
        : exporter.get(api.port, `/v1/audit/export?since=${new Date(Date.now() - EXPORT_WINDOW_MS).toISOString()}`));
      const cut = kind === "export" && a.status === 200 && !exportIsWhole(a.body);
      const ok = a.status >= 200 && a.status < 300 && !cut;
      const what = `${kind} ${a.status}${cut ? " cut short" : ""}`;
      if (!ok) errors[inPhase].set(what, (errors[inPhase].get(what) ?? 0) + 1);
      if (inPhase === "measure") {
        if (ok) measured.push(performance.now());
        return;
      }
      answered++;
      if (ok) lat.get(kind)?.push(a.ms);
    };
    /** Every 5 s of the soak (t in minutes from its start); the capacity phase is not sampled. */
    const samples: { t: number; rss: number; conns: number }[] = [];
    const sample = async (minutes: number) => {
      samples.push({ t: minutes, rss: rssMb(api.pid), conns: await connections() });
    };

    // Capacity: closed loop, the same mix, counted once it is steady (countedSpan).
    const measureMs = (o.measureSeconds ?? MEASURE_SECONDS) * 1000;
    const span = countedSpan(measureMs);
    const m0 = performance.now();
    const loop = closedLoop(MEASURE_CONNECTIONS, send);
    while (performance.now() - m0 < measureMs) {
      await sleep(Math.min(5_000, measureMs - (performance.now() - m0)));
      if (!o.quiet) process.stdout.write(`\rcapacity phase ${((performance.now() - m0) / 1000).toFixed(0)} s: ${measured.length} answered, RSS ${rssMb(api.pid).toFixed(0)} MB   `);
    }
    const counted = measured.filter((t) => t - m0 >= span.from && t - m0 < span.to).length;
    const capacity = counted / ((span.to - span.from) / 1000);
    await loop.stop();
    measured = [];
    if (!(capacity > 0)) throw new Error(`the capacity phase got no answer in its last ${((span.to - span.from) / 1000).toFixed(0)} s (errors: ${JSON.stringify(Object.fromEntries(errors.measure))}); nothing to soak at`);
    // The phase ran at saturation: async jobs queued beyond what the worker keeps up with are
    // still being worked off. The soak starts once they are, and after a few quiet seconds.
    const backlog = async () => ((await probe.query(`SELECT count(*)::int AS n FROM async_jobs WHERE status IN ('queued', 'running')`)) as { n: number }[])[0]?.n ?? 0;
    const d0 = performance.now();
    while ((await backlog()) > 0 && performance.now() - d0 < DRAIN_LIMIT_MS) await sleep(250);
    const drainedMs = performance.now() - d0;
    const left = await backlog();
    await sleep(SETTLE_MS);
    const rate = o.rate ?? Math.max(1, Math.round(capacity * LOAD_SHARE));
    if (!o.quiet) console.log(`\ncapacity for this mix: ${capacity.toFixed(0)} req/s (${MEASURE_CONNECTIONS} clients, closed loop, last ${((span.to - span.from) / 1000).toFixed(0)} s of ${measureMs / 1000}${span.steady ? "" : `; not steady: exports ask for the last ${EXPORT_WINDOW_MS / 1000} s, and only a phase of ${STEADY_PHASE_MS / 1000} s or more counts once that window is full`}); soak at ${rate} req/s (${((100 * rate) / capacity).toFixed(0)} %), after ${(drainedMs / 1000).toFixed(1)} s for its async backlog${left > 0 ? ` (${left} jobs still queued or running at the ${DRAIN_LIMIT_MS / 1000} s limit)` : ""} and ${SETTLE_MS / 1000} s more`);

    phase = "soak";
    const t0 = performance.now();
    const total = o.minutes * 60_000;
    const inflight = new Set<Promise<void>>();
    let nextSample = 0;
    while (performance.now() - t0 < total) {
      const elapsed = performance.now() - t0;
      // Open loop: as many requests as the rate calls for by now, whatever is still in flight.
      while (sent < (elapsed / 1000) * rate) {
        sent++;
        const p = send().finally(() => inflight.delete(p));
        inflight.add(p);
      }
      if (elapsed >= nextSample) {
        await sample(elapsed / 60_000);
        if (!o.quiet) process.stdout.write(`\r${(elapsed / 1000).toFixed(0)} s: ${answered} answered, ${inflight.size} in flight, RSS ${samples.at(-1)?.rss.toFixed(0)} MB, ${samples.at(-1)?.conns} connections   `);
        nextSample += 5_000;
      }
      await sleep(5);
    }
    await Promise.all(inflight);
    if (!o.quiet) console.log();
    const lastHalf = samples.filter((s) => s.t >= o.minutes / 2);
    const rssTrend = slope(lastHalf.map((s) => [s.t, s.rss]));
    const maxConns = Math.max(...samples.map((s) => s.conns));
    const midConns = lastHalf[0]?.conns ?? NaN;
    // Pools open connections as load needs them, up to their sizes; a leak goes on growing. So:
    // the end of the soak may not hold more than its first half reached.
    const firstHalfMax = Math.max(...samples.filter((s) => s.t < o.minutes / 2).map((s) => s.conns));
    const endConns = samples.at(-1)?.conns ?? NaN;
    const count = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const measureErrors = count(errors.measure);
    const errorCount = count(errors.soak);
    const screenP99 = percentile(lat.get("screen") ?? [], 99);
    const budget = o.p99BudgetMs ?? 50;
    const ok = measureErrors === 0 && errorCount === 0 && screenP99 <= budget && rssTrend <= 2 && endConns <= firstHalfMax + 2;
    if (!o.quiet) {
      line("capacity for the mix (closed loop)", `${capacity.toFixed(0)} req/s`);
      line("run", `${o.minutes} min at ${rate} req/s offered (${((100 * rate) / capacity).toFixed(0)} % of capacity); ${answered} answered (${(answered / (o.minutes * 60)).toFixed(0)}/s)`);
      line("errors in the capacity phase", `${measureErrors} ${JSON.stringify(Object.fromEntries(errors.measure))}`);
      line("errors", `${errorCount} (${((100 * errorCount) / Math.max(1, answered)).toFixed(3)} %) ${JSON.stringify(Object.fromEntries(errors.soak))}`);
      for (const [k, v] of lat) if (v.length) line(`  ${k}: n / p50 / p99`, `${v.length} / ${percentile(v, 50).toFixed(1)} ms / ${percentile(v, 99).toFixed(1)} ms`);
      line("API RSS first / mid / last (MB)", `${samples[0]?.rss.toFixed(0)} / ${lastHalf[0]?.rss.toFixed(0)} / ${samples.at(-1)?.rss.toFixed(0)}`);
      line("API RSS trend over the last half", `${rssTrend.toFixed(2)} MB/min (limit 2)`);
      line("database connections mid / end / max", `${midConns} / ${endConns} / ${maxConns} (API pool 10, worker, probe 1)`);
      line("connections at the end vs. first half's most", `${endConns} vs. ${firstHalfMax} (limit: at most 2 more)`);
      line("result", ok ? `PASS (screen p99 ≤ ${budget} ms)` : `FAIL (screen p99 budget ${budget} ms)`);
    }
    return { ok, capacity, rate };
  } finally {
    await exporter.close();
    await stopApi(api);
    worker.child.kill("SIGTERM");
    await worker.exited;
    await probe.destroy();
    await db.drop();
  }
}
