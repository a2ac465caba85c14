export {
  addQueueDepthSource, checksTotal, countCheck, enableProcessMetrics, exposition, feedSyncErrors, httpRequestDuration, jobLatency, providerErrors,
  queueDepth, registry, webhookDeliveries, type QueueDepth, type QueueDepthSource,
} from "./instruments.js";
export { MetricsEnvSchema, metricsSettingsFromEnv, serveProcessMetrics, startMetricsServer, type MetricsServer, type MetricsSettings } from "./server.js";
