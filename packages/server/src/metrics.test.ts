import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { RunningWorker } from "@svc/jobs";
import { histogramSeries, parsePrometheusText, seriesValue, type PromMetrics } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@svc/runtime";
import { startEmbeddedWorker } from "./embedded-worker.js";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

/** Plays a webhook receiver (204), a reputation provider that is down (503) and a feed that is down (500). */
async function outside(): Promise<{ base: string; hooks: number; close(): Promise<void> }> {
  const state = { hooks: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/hook") {
        state.hooks++;
        return void res.writeHead(204).end();
      }
      if (req.url?.startsWith("/urlhaus")) return void res.writeHead(503).end();
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.2", r));
  return {
    base: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    get hooks() {
      return state.hooks;
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe.each(engines)("GET /metrics on %s", (engine) => {
  let api: TestApi;
  let fake: Awaited<ReturnType<typeof outside>>;
  let server: ServerType;
  let worker: RunningWorker;
  let base = "";
  let customer = { key: "", accountId: "" };
  let operator = { key: "" };
  beforeAll(async () => {
    fake = await outside();
    const env = {
      SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.2/32",
      SVC_PROVIDERS: "urlhaus", SVC_URLHAUS_KEY: "urlhaus-test-key", SVC_URLHAUS_URL: `${fake.base}/urlhaus`,
      SVC_FEEDS: JSON.stringify([{ name: "down-feed", url: `${fake.base}/feed.txt`, format: "plain", type: "domain", label: "test" }]),
    };
    api = await startTestApi(engine, env);
    customer = await api.account("pro");
    operator = await api.account("pro", "operator");
    worker = await startEmbeddedWorker(api.runtime, loadConfig({ ...env, SVC_DATA_DIR: "memory://" }), { pollIntervalMs: 100 });
    server = serve({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((r) => (server.listening ? r() : server.once("listening", () => r())));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await worker?.stop(5_000);
    await api?.close();
    await fake?.close();
  });

  const call = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { "content-type": "application/json", ...(init.key ? { "x-api-key": init.key } : {}), ...(init.headers as Record<string, string> | undefined) } });
  const scrape = async (): Promise<{ text: string; metrics: PromMetrics }> => {
    const res = await call("/metrics", { key: operator.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    return { text, metrics: await parsePrometheusText(text) };
  };
  const requests = (m: PromMetrics, labels: Record<string, string>) => histogramSeries(m, "svc_http_request_duration_seconds", labels).reduce((n, s) => n + s.count, 0);

  it("is for the operator's keys only", async () => {
    const none = await call("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("content-type")).toContain("application/problem+json");
    const customers = await call("/metrics", { key: customer.key });
    expect(customers.status).toBe(403);
    expect(((await customers.json()) as { code: string }).code).toBe("auth.operator_only");
  });

  it("counts requests per route pattern, checks by type and level, jobs, webhooks, provider and feed errors", async () => {
    const before = (await scrape()).metrics;

    // Two synchronous checks of a look-alike domain, one URL whose provider is down, a lookup by id, a 404.
    for (let i = 0; i < 2; i++) expect((await call("/v1/screen", { method: "POST", key: customer.key, body: JSON.stringify({ entity_value: "paypa1.com" }) })).status).toBe(200);
    const url = await call("/v1/screen", { method: "POST", key: customer.key, body: JSON.stringify({ entity_value: "http://metrics-probe-login.com/signin" }) });
    expect(url.status).toBe(200);
    const urlVerdict = (await url.json()) as { id: string; risk_level: string; coverage: { unavailable: unknown[] } };
    expect(JSON.stringify(urlVerdict.coverage.unavailable)).toContain("urlhaus");
    expect((await call(`/v1/audit/${urlVerdict.id}`, { key: customer.key })).status).toBe(200);
    expect((await call("/v1/no-such-route/chk_secret_value", { key: customer.key })).status).toBe(404);
    // An asynchronous check with a webhook, run by the embedded worker.
    const submitted = await call("/v1/screen/async", { method: "POST", key: customer.key, body: JSON.stringify({ entity_value: "paypa1.com", webhook_url: `${fake.base}/hook` }) });
    expect(submitted.status).toBe(202);
    const { job_id } = (await submitted.json()) as { job_id: string };
    for (let i = 0; ; i++) {
      const j = (await (await call(`/v1/jobs/${job_id}`, { key: customer.key })).json()) as { status: string; webhook: { status: string } | null };
      if (j.status === "succeeded" && j.webhook?.status === "delivered") break;
      if (i > 400) throw new Error(`job ${job_id} did not finish: ${JSON.stringify(j)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // A feed sync that fails.
    const [synced] = await api.runtime.feeds.syncAll();
    expect(synced?.status).toBe("failed");

    const { text, metrics: after } = await scrape();
    const moved = (m: (x: PromMetrics) => number) => m(after) - m(before);

    expect(after.svc_http_request_duration_seconds?.type).toBe("histogram");
    expect(moved((m) => requests(m, { method: "POST", route: "/v1/screen", status: "200" }))).toBe(3);
    expect(moved((m) => requests(m, { method: "GET", route: "/v1/audit/:id", status: "200" }))).toBe(1);
    expect(moved((m) => requests(m, { method: "POST", route: "/v1/screen/async", status: "202" }))).toBe(1);
    expect(moved((m) => requests(m, { route: "/v1/jobs/:id", status: "200" }))).toBeGreaterThanOrEqual(1);
    expect(moved((m) => requests(m, { method: "GET", status: "404" }))).toBe(1);
    // Latency lands in buckets: the +Inf bucket holds every request of the series.
    const [screen] = histogramSeries(after, "svc_http_request_duration_seconds", { method: "POST", route: "/v1/screen", status: "200" });
    expect(screen?.buckets["+Inf"]).toBe(screen?.count);
    expect(screen?.sum).toBeGreaterThan(0);
    // No raw path, id or entity value in any label: only route patterns.
    for (const value of [urlVerdict.id, job_id, "chk_secret_value", "paypa1.com", "metrics-probe-login.com", customer.accountId]) expect(text).not.toContain(value);
    const routes = new Set(histogramSeries(after, "svc_http_request_duration_seconds").map((s) => s.labels.route));
    for (const route of routes) expect(route).toMatch(/^(\*|\/[\w/:*.-]*)$/);

    const lookalike = (await (await call("/v1/screen", { method: "POST", key: customer.key, body: JSON.stringify({ entity_value: "paypa1.com" }) })).json()) as { risk_level: string };
    const checks = (channel: string, type: string, level: string) => moved((m) => seriesValue(m, "svc_checks_total", { channel, entity_type: type, risk_level: level }));
    expect(checks("api", "domain", lookalike.risk_level)).toBe(2);
    expect(checks("api", "url", urlVerdict.risk_level)).toBe(1);
    expect(checks("async", "domain", lookalike.risk_level)).toBe(1);

    expect(moved((m) => histogramSeries(m, "svc_job_latency_seconds", { queue: "screen-checks", outcome: "succeeded" }).reduce((n, s) => n + s.count, 0))).toBe(1);
    expect(moved((m) => seriesValue(m, "svc_webhook_deliveries_total", { outcome: "delivered" }))).toBe(1);
    expect(fake.hooks).toBeGreaterThanOrEqual(1);
    expect(moved((m) => seriesValue(m, "svc_provider_errors_total", { provider: "urlhaus" }))).toBeGreaterThanOrEqual(1);
    expect(moved((m) => seriesValue(m, "svc_feed_sync_errors_total", { feed: "down-feed" }))).toBe(1);
    // The queue's depth is read at scrape time: nothing left waiting.
    expect(after.svc_queue_depth?.data.length).toBeGreaterThan(0);
    expect(seriesValue(after, "svc_queue_depth", { state: "waiting" })).toBe(0);
    // The job latency's queue is one the depth names (a dashboard joins the two on it).
    expect((after.svc_queue_depth?.data ?? []).map((d) => (d as { labels: Record<string, string> }).labels.queue)).toContain("screen-checks");
    // Process metrics.
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes"]) expect(Object.keys(after)).toContain(name);
  }, 120_000);
});
