// @svc/server: the HTTP API (Hono app, routes, services) and its composition on @svc/runtime.
// The API process and `svc serve` / `svc` on a local database run it.
export { createApp } from "./app.js";
export { ADMIN_ACCOUNT_ID, bootstrapAdmin } from "./bootstrap.js";
export { auditExportCsv, csvOfRows } from "./audit-export.js";
export { record } from "./checks.js";
export { buildRuntime, type Runtime } from "./container.js";
export { startEmbeddedWorker } from "./embedded-worker.js";
export { drainHttpServer, tuneHttpServer } from "./http-server.js";
export type { ApiServices } from "./services.js";
