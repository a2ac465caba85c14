import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus instruments, on one registry per process (prom-client's usual shape:
 * instruments are module-level and counted where things happen). Labels carry only bounded,
 * operational values — route patterns, entity types, risk levels, outcome kinds, provider and
 * feed names from the operator's configuration — never an account, key, entity value or id.
 */
export const registry = new Registry();

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

/** One observation per HTTP request; its `_count` is the request rate. `route` is the matched pattern (`/v1/checks/:id`), never the raw path. */
export const httpRequestDuration = new Histogram({
  name: "svc_http_request_duration_seconds",
  help: "HTTP requests by method, route pattern and status code: latency in seconds (the _count series is the request rate).",
  labelNames: ["method", "route", "status"] as const,
  buckets: HTTP_BUCKETS,
  registers: [registry],
});

/** Checks whose verdict was committed (API and worker) or answered (bots). */
export const checksTotal = new Counter({
  name: "svc_checks_total",
  help: "Checks completed, by channel (api, async, bot), entity type and risk level.",
  labelNames: ["channel", "entity_type", "risk_level"] as const,
  registers: [registry],
});

/** Time from a job's submission to its result being committed. */
export const jobLatency = new Histogram({
  name: "svc_job_latency_seconds",
  help: "Asynchronous jobs: seconds from submission to the committed result, by queue and outcome.",
  labelNames: ["queue", "outcome"] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: "svc_webhook_deliveries_total",
  help: "Webhook delivery attempts by outcome (delivered, gone, redirect, http_error, timeout, blocked, network).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const providerErrors = new Counter({
  name: "svc_provider_errors_total",
  help: "Reputation provider lookups that failed (after retries), by provider and error kind.",
  labelNames: ["provider", "kind"] as const,
  registers: [registry],
});

export const feedSyncErrors = new Counter({
  name: "svc_feed_sync_errors_total",
  help: "Live feed syncs that failed (old entries kept), by feed name.",
  labelNames: ["feed"] as const,
  registers: [registry],
});

/** One row of a queue-depth reading: how many jobs of `queue` are in `state`. */
export interface QueueDepth {
  readonly queue: string;
  readonly state: string;
  readonly count: number;
}

/** Reads the current depth (e.g. one COUNT query); registered by each process that runs a worker. */
export type QueueDepthSource = () => Promise<readonly QueueDepth[]>;

const depthSources = new Set<QueueDepthSource>();

/**
 * Read at scrape time, not counted: the depth is the database's, shared by every worker, so
 * every worker reports the same value (aggregate with `max`, not `sum`).
 */
export const queueDepth = new Gauge({
  name: "svc_queue_depth",
  help: "Jobs waiting or running, by queue and state, as read from the database at scrape time (the same value from every worker: use max).",
  labelNames: ["queue", "state"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const source of depthSources) {
      // A database that does not answer leaves the gauge empty for this scrape (absent, not zero).
      const rows = await source().catch(() => [] as readonly QueueDepth[]);
      for (const r of rows) this.inc({ queue: r.queue, state: r.state }, r.count);
    }
  },
});

/** Adds a queue-depth source; the returned function removes it (on shutdown). */
export function addQueueDepthSource(source: QueueDepthSource): () => void {
  depthSources.add(source);
  return () => void depthSources.delete(source);
}

/** Shorthand for the one place each channel counts a finished check. */
export function countCheck(channel: string, entityType: string, riskLevel: string): void {
  checksTotal.inc({ channel, entity_type: entityType, risk_level: riskLevel });
}

let processMetrics = false;

/**
 * Node.js and process metrics (CPU, memory, GC, handles, event-loop lag); once per process. On
 * when this module loads, so the event-loop delay monitor has samples by the first scrape (until
 * its first 10 ms it reports NaN, which some scrapers' parsers refuse).
 */
export function enableProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}
enableProcessMetrics();

/** The text exposition of every metric of this process. */
export async function exposition(): Promise<{ contentType: string; body: string }> {
  enableProcessMetrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
