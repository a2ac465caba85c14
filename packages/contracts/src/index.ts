export * from "./schemas.js";
export * from "./usage.js";
export * from "./keys.js";
export * from "./reports.js";
export * from "./text.js";
export * from "./audit-verify.js";
export * from "./billing.js";
export * from "./support.js";
