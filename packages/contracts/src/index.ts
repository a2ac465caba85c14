export * from "./schemas.js";
export * from "./usage.js";
