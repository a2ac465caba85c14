import { createHash } from "node:crypto";
import { canonicalJson } from "@svc/core";
import type { Context } from "hono";
import { problem } from "./problem.js";
import type { ApiServices } from "./services.js";

export interface HandlerResult {
  readonly status: number;
  readonly body: unknown;
}

/**
 * `Idempotency-Key` on POST: the same key with the same body replays the first response; with
 * another body it is refused (422); while the first is still running, 409. Failed requests
 * (problems) release the key so a corrected retry can use it.
 */
export async function idempotent(c: Context, s: Pick<ApiServices, "idempotency" | "clock">, accountId: string, run: () => Promise<HandlerResult>): Promise<HandlerResult> {
  const key = c.req.header("idempotency-key");
  if (!key) return run();
  const body: unknown = await c.req.json();
  const hash = createHash("sha256").update(`${c.req.method} ${c.req.path}\n${canonicalJson(body)}`).digest("hex");
  const begun = await s.idempotency.begin(accountId, key, hash, s.clock.now());
  switch (begun.state) {
    case "done":
      c.header("Idempotent-Replayed", "true");
      return begun.response;
    case "in_flight":
      throw problem({ status: 409, code: "idempotency.in_flight", title: "Still running", detail: "A request with this Idempotency-Key is still being processed; retry shortly.", retryable: true });
    case "mismatch":
      throw problem({ status: 422, code: "idempotency.mismatch", title: "Idempotency-Key reused", detail: "This Idempotency-Key was used with a different request body." });
    case "new":
      break;
  }
  try {
    const result = await run();
    await s.idempotency.complete(accountId, key, result);
    return result;
  } catch (e) {
    await s.idempotency.abandon(accountId, key);
    throw e;
  }
}
