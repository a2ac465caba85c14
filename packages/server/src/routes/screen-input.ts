import { EntityTypeSchema, type ScreenRequestBody } from "@svc/contracts";
import type { Context } from "hono";

const TYPES: ReadonlySet<string> = new Set(EntityTypeSchema.options);
const MAX_VALUE = 4_096;
const MAX_IDEMPOTENCY_KEY = 255;

/**
 * The body of a `POST /v1/screen` that the route's schemas (ScreenRequestSchema, the
 * Idempotency-Key header, the JSON media type) would plainly accept, as they would give it back;
 * null for anything else, which then goes through those schemas for its exact 4xx answer.
 * Checking these few fields by hand saves the validators' work (and a copy of every header) on
 * each check. `c.req.json()` was already parsed by the JSON body middleware (Hono caches it).
 */
export async function plainScreenBody(c: Context): Promise<ScreenRequestBody | null> {
  const type = c.req.header("content-type");
  if (type !== "application/json") return null;
  return plainScreenInput(type, c.req.header("idempotency-key"), await c.req.json());
}

/** `plainScreenBody` on its parts: the Content-Type and Idempotency-Key headers and the parsed body. */
export function plainScreenInput(contentType: string | undefined, idempotencyKey: string | undefined, body: unknown): ScreenRequestBody | null {
  if (contentType !== "application/json") return null;
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)) return null;
  if (body === null || typeof body !== "object" || Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype) return null;
  let fields = 0;
  const { entity_value: value, type } = body as Record<string, unknown>;
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_VALUE || !Object.hasOwn(body, "entity_value")) return null;
  fields++;
  if (Object.hasOwn(body, "type")) {
    if (typeof type !== "string" || !TYPES.has(type)) return null;
    fields++;
  }
  // The schema is strict: another member is refused there.
  if (Object.keys(body).length !== fields) return null;
  return fields === 2 ? { entity_value: value, type: type as NonNullable<ScreenRequestBody["type"]> } : { entity_value: value };
}
