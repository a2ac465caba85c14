export * from "./schemas.js";
export * from "./text.js";
