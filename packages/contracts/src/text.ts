import { z } from "@hono/zod-openapi";

/**
 * Text the database can store as it was sent. PostgreSQL rejects NUL (U+0000) in `text` and
 * `jsonb`, and a lone UTF-16 surrogate cannot be encoded as UTF-8 (it would be stored as U+FFFD,
 * silently changing the data), so both are refused at the edge rather than failing in SQL.
 */
// Without the `u` flag the pattern sees UTF-16 code units, so unpaired surrogates are matchable.
const UNSAFE_TEXT = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSAFE_TEXT_MESSAGE = "must not contain NUL (\\u0000) or unpaired UTF-16 surrogates";

export const hasUnsafeText = (s: string): boolean => UNSAFE_TEXT.test(s);

/** Nesting allowed in free-form JSON (async `metadata`): plenty for data, far from a stack overflow. */
export const MAX_JSON_DEPTH = 16;

/**
 * The first problem in a JSON value: a string or key with unsafe text, or nesting deeper than
 * `maxDepth`. Walks iteratively, so a hostile 5,000-deep value cannot overflow the stack here.
 */
export function findJsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): { path: (string | number)[]; reason: "text" | "depth" } | null {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop() as { v: unknown; path: (string | number)[] };
    if (typeof v === "string") {
      if (hasUnsafeText(v)) return { path, reason: "text" };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (path.length >= maxDepth) return { path, reason: "depth" };
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ v: item, path: [...path, i] }));
      continue;
    }
    for (const [k, item] of Object.entries(v)) {
      if (hasUnsafeText(k)) return { path: [...path, k], reason: "text" };
      stack.push({ v: item, path: [...path, k] });
    }
  }
  return null;
}

/** A string field whose text the database can store (zod issue `params.code` = `invalid_text`). */
export const safeText = <T extends z.ZodString>(schema: T): T =>
  schema.refine((s) => !hasUnsafeText(s), { message: UNSAFE_TEXT_MESSAGE, params: { code: "invalid_text" } }) as T;

/** A free-form JSON object (e.g. `metadata`): safe text everywhere, at most MAX_JSON_DEPTH levels. */
export const safeJsonRecord = () =>
  z.record(z.string(), z.any()).superRefine((m, ctx) => {
    const found = findJsonProblem(m);
    if (!found) return;
    ctx.addIssue({
      code: "custom",
      path: found.path,
      message: found.reason === "depth" ? `must be nested at most ${MAX_JSON_DEPTH} levels deep` : UNSAFE_TEXT_MESSAGE,
      params: { code: found.reason === "depth" ? "too_deep" : "invalid_text" },
      // The size check that follows serializes the value; not worth running on a refused one.
      continue: false,
    });
  });
