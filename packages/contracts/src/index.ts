export * from "./schemas.js";
