export * from "./schemas.js";
export * from "./audit-verify.js";
