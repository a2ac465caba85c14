// The API's composition root and the pieces the CLI shares with the server (one wiring, one
// `record`), from @svc/api's package entry (apps/api/src/index.ts).
/* eslint-disable @nx/enforce-module-boundaries -- the CLI embeds the API until the composition root is a package of its own */
export {
  ADMIN_ACCOUNT_ID, ConfigError, T, bootstrapAdmin, buildRuntime, createApp, drainHttpServer, isKnownPlan, loadConfig, planNames,
  providerSettings, record, startEmbeddedWorker, tuneHttpServer, type Config, type Runtime,
} from "@svc/api";
/* eslint-enable @nx/enforce-module-boundaries */
