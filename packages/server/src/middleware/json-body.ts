import type { MiddlewareHandler } from "hono";
import { problem } from "../problem.js";

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

/**
 * POST bodies must be JSON: 415 for another content type, 400 for malformed JSON, before any
 * schema validation (which answers 422). The parsed body is cached by Hono for the handler.
 */
export const jsonBody = (): MiddlewareHandler => async (c, next) => {
  if (c.req.method !== "POST") return next();
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (!JSON_TYPE.test(type)) {
    throw problem({ status: 415, code: "request.unsupported_media_type", title: "Send JSON", detail: `Content-Type must be application/json${type ? `, not ${type}` : ""}.` });
  }
  try {
    await c.req.json();
  } catch {
    throw problem({ status: 400, code: "request.malformed_json", title: "Malformed JSON", detail: "The request body is not valid JSON." });
  }
  return next();
};
