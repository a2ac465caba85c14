// The ports of the API server and its worker: accounts and their API keys, usage counters and
// rate limits, idempotency keys, web users, the job queue and webhooks. They are not part of the
// embedded library (@svc/core): a program that screens in-process needs none of them.
export type * from "./account-repository.js";
export type * from "./api-key-repository.js";
export type * from "./web-accounts.js";
export type * from "./idempotency-store.js";
export type * from "./usage-counter.js";
export type * from "./rate-limiter.js";
export type * from "./job-queue.js";
export { ASYNC_JOB_STATUSES, checkIdForJob } from "./job-queue.js";
export type * from "./webhook-secrets.js";
export { WEBHOOK_SECRET_OVERLAP_MS } from "./webhook-secrets.js";
export type * from "./webhook-url-guard.js";
export { API_KEY_PREFIX, formatApiKey, isWellFormedApiKey, hashApiKey, apiKeyHint, apiKeyFromSecret } from "./api-key.js";
