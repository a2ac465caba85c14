// What the CLI shares with the server (`svc serve`, `svc keys` … on the embedded database): the
// composition root, the app and the pieces around it. No side effects: `main.ts` is the process.
export { createApp } from "./app.js";
export { ADMIN_ACCOUNT_ID, bootstrapAdmin } from "./bootstrap.js";
export { record } from "./checks.js";
export { ConfigError, loadConfig, providerSettings, type Config } from "./config.js";
export { buildRuntime, T, type Runtime } from "./container.js";
export { drainHttpServer, tuneHttpServer } from "./http-server.js";
export { isKnownPlan, planNames } from "./plans.js";
export { startEmbeddedWorker } from "./embedded-worker.js";
