// The API's composition root and the pieces the CLI shares with the server (one wiring, one
// `record`). Imported by path until @svc/api exports them from its package entry
// (apps/api/src/index.ts); then this file becomes `export … from "@svc/api"`.
/* eslint-disable @nx/enforce-module-boundaries -- temporary, see above */
export { createApp } from "../../api/src/app.js";
export { ADMIN_ACCOUNT_ID, bootstrapAdmin } from "../../api/src/bootstrap.js";
export { record } from "../../api/src/checks.js";
export { ConfigError, loadConfig, providerSettings, type Config } from "../../api/src/config.js";
export { buildRuntime, T, type Runtime } from "../../api/src/container.js";
export { drainHttpServer, tuneHttpServer } from "../../api/src/http-server.js";
export { isKnownPlan, planNames } from "../../api/src/plans.js";
export { startEmbeddedWorker } from "../../api/src/embedded-worker.js";
/* eslint-enable @nx/enforce-module-boundaries */
