// @svc/runtime: the one composition root. Every svc process (the API, the worker, `svc`, each
// chat bot) reads its configuration, makes its logger and opens its storage, screening, job
// queue and adapters through here.
export * from "./config/index.js";
export { auditKeysOf, type AuditKeys } from "./audit-keys.js";
export { openBotRuntime, type BotOverrides, type BotRuntime, type BotSettings } from "./bots.js";
export { createLogger, LOG_SECRETS, redactSecrets, requestLogger, type Logger, type LoggerOptions } from "./logger.js";
export { openJobQueue, type QueueOptions } from "./queue.js";
export { reputationProviders, screeningDeps, screeningPort, type ScreeningOptions } from "./screening.js";
export { createEmbeddedDatabaseApart, embeddedDataDir, openStorage, storageLabel, type StorageOptions, type StorageSettings } from "./storage.js";
export { listenFailureLine, startFailureLine } from "./start-failure.js";
export { buildWorker, type WorkerRuntime } from "./worker.js";
