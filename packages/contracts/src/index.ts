export * from "./schemas.js";
export * from "./reports.js";
