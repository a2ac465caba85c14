export * from "./schemas.js";
export * from "./keys.js";
