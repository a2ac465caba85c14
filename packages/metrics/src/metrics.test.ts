import { spawnSync } from "node:child_process";
import { histogramSeries, parsePrometheusText, seriesValue, type PromMetrics } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addQueueDepthSource, countCheck, enableProcessMetrics, feedSyncErrors, jobLatency, metricsSettingsFromEnv, providerErrors, startMetricsServer, webhookDeliveries, type MetricsServer } from "./index.js";

async function scrape(url: string): Promise<PromMetrics> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

describe("metrics listener (worker and bots)", () => {
  let server: MetricsServer;
  beforeAll(async () => {
    // The event-loop delay monitor (on since the module loaded) reports NaN until its first
    // samples (10 ms); prom2javascript cannot read NaN (Prometheus can): a moment for it here.
    enableProcessMetrics();
    await new Promise((r) => setTimeout(r, 50));
    const s = await startMetricsServer({ port: 0, host: "127.0.0.1" });
    if (!s) throw new Error("no server");
    server = s;
  });
  afterAll(() => server.close());

  it("serves the process's metrics in the Prometheus text format, and the counts move", async () => {
    const before = await scrape(server.url);
    countCheck("async", "domain", "high");
    countCheck("async", "domain", "high");
    countCheck("async", "url", "low");
    webhookDeliveries.inc({ outcome: "timeout" });
    providerErrors.inc({ provider: "urlhaus", kind: "timeout" });
    feedSyncErrors.inc({ feed: "openphish" });
    jobLatency.observe({ queue: "check", outcome: "succeeded" }, 0.3);
    jobLatency.observe({ queue: "check", outcome: "failed" }, 20);
    const remove = addQueueDepthSource(async () => [{ queue: "check", state: "queued", count: 7 }, { queue: "check", state: "running", count: 2 }]);
    const after = await scrape(server.url);
    remove();

    const moved = (name: string, labels: Record<string, string>) => seriesValue(after, name, labels) - seriesValue(before, name, labels);
    expect(after.svc_checks_total?.type).toBe("counter");
    expect(moved("svc_checks_total", { channel: "async", entity_type: "domain", risk_level: "high" })).toBe(2);
    expect(moved("svc_checks_total", { channel: "async", entity_type: "url", risk_level: "low" })).toBe(1);
    expect(moved("svc_webhook_deliveries_total", { outcome: "timeout" })).toBe(1);
    expect(moved("svc_provider_errors_total", { provider: "urlhaus", kind: "timeout" })).toBe(1);
    expect(moved("svc_feed_sync_errors_total", { feed: "openphish" })).toBe(1);
    const [ok] = histogramSeries(after, "svc_job_latency_seconds", { queue: "check", outcome: "succeeded" });
    expect(ok?.count).toBe(1);
    expect(ok?.buckets["0.25"]).toBe(0);
    expect(ok?.buckets["0.5"]).toBe(1);
    const [failed] = histogramSeries(after, "svc_job_latency_seconds", { queue: "check", outcome: "failed" });
    expect(failed?.buckets["10"]).toBe(0);
    expect(failed?.buckets["30"]).toBe(1);
    expect(failed?.sum).toBe(20);
    expect(seriesValue(after, "svc_queue_depth", { queue: "check", state: "queued" })).toBe(7);
    expect(seriesValue(after, "svc_queue_depth", { queue: "check", state: "running" })).toBe(2);
    // Process metrics, event-loop lag among them.
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes"]) {
      expect(Object.keys(after)).toContain(name);
    }
    // A removed source no longer reports.
    expect((await scrape(server.url)).svc_queue_depth?.data ?? []).toHaveLength(0);
  });

  it("a failing depth source leaves the gauge empty instead of failing the scrape", async () => {
    const remove = addQueueDepthSource(async () => {
      throw new Error("connection refused");
    });
    try {
      expect((await scrape(server.url)).svc_queue_depth?.data ?? []).toHaveLength(0);
    } finally {
      remove();
    }
  });

  it("answers only GET /metrics", async () => {
    const base = server.url.replace(/\/metrics$/, "");
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
    const post = await fetch(server.url, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await fetch(`${server.url}?name[]=x`)).status).toBe(200);
  });
});

describe("metrics settings", () => {
  it("are off by default, loopback unless told", async () => {
    expect(metricsSettingsFromEnv({})).toEqual({ port: undefined, host: "127.0.0.1" });
    expect(metricsSettingsFromEnv({ SVC_METRICS_PORT: "" })).toEqual({ port: undefined, host: "127.0.0.1" });
    expect(metricsSettingsFromEnv({ SVC_METRICS_PORT: "9464", SVC_METRICS_HOST: "0.0.0.0" })).toEqual({ port: 9464, host: "0.0.0.0" });
    await expect(startMetricsServer({ port: undefined, host: "127.0.0.1" })).resolves.toBeNull();
  });

  it("a bad port names the variable", () => {
    expect(() => metricsSettingsFromEnv({ SVC_METRICS_PORT: "http" })).toThrow(/SVC_METRICS_PORT: must be a port number/);
    expect(() => metricsSettingsFromEnv({ SVC_METRICS_PORT: "70000" })).toThrow(/SVC_METRICS_PORT/);
  });
});

describe("serveProcessMetrics (the worker's and the bots' entry points)", () => {
  const run = (env: Record<string, string>, script: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: import.meta.dirname, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
  const SERVE = `import { serveProcessMetrics } from "./index.ts";
const s = await serveProcessMetrics(process.env, "svc test");
if (s) { const r = await fetch(s.url); console.log(r.status, (await r.text()).includes("process_cpu_user_seconds_total")); }
else console.log("off");`;

  it("serves while the process runs, and never keeps it from exiting", () => {
    const on = run({ SVC_METRICS_PORT: "0" }, SERVE);
    expect(on.stderr).toBe("");
    expect(on.stdout.trim()).toBe("200 true");
    expect(on.status).toBe(0);
    expect(run({}, SERVE).stdout.trim()).toBe("off");
  }, 90_000);

  it("a bad SVC_METRICS_PORT ends the process with one line naming it", () => {
    const bad = run({ SVC_METRICS_PORT: "ninety" }, SERVE);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe("svc test: SVC_METRICS_PORT: must be a port number from 0 to 65535");
  }, 90_000);
});
