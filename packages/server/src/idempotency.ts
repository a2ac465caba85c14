import { createHash } from "node:crypto";
import { canonicalJson, IDEMPOTENCY_LEASE_MS } from "@svc/core";
import type { Context } from "hono";
import { problem } from "./problem.js";
import type { ApiServices } from "./services.js";

export interface HandlerResult {
  readonly status: number;
  readonly body: unknown;
}

/** What the handler is told about the key it runs under. */
export interface IdempotencyClaim {
  readonly key: string;
  /**
   * Set when the key was taken over from a request that died mid-way (its lease ran out): what it
   * did after `claimed_at` (a job it submitted) is to be found and answered, not done again.
   */
  readonly recovered: { readonly claimed_at: Date } | null;
}

/** Seconds a client is told to wait on 409: the request holding the key is alive and most finish within one. */
export const IN_FLIGHT_RETRY_AFTER_S = 1;

/**
 * `Idempotency-Key` on POST: the same key with the same body replays the first response; with
 * another body it is refused (422); while the first is still running, 409 with Retry-After.
 * The running request holds the key by a lease it renews; if its process dies the lease runs out
 * (IDEMPOTENCY_LEASE_MS) and the next retry takes the key over. Failed requests (problems)
 * release the key so a corrected retry can use it.
 */
export async function idempotent(
  c: Context, s: Pick<ApiServices, "idempotency" | "clock">, accountId: string, run: (claim: IdempotencyClaim | null) => Promise<HandlerResult>,
): Promise<HandlerResult> {
  const key = c.req.header("idempotency-key");
  if (!key) return run(null);
  const body: unknown = await c.req.json();
  const hash = createHash("sha256").update(`${c.req.method} ${c.req.path}\n${canonicalJson(body)}`).digest("hex");
  const begun = await s.idempotency.begin(accountId, key, hash, s.clock.now());
  switch (begun.state) {
    case "done":
      c.header("Idempotent-Replayed", "true");
      return begun.response;
    case "in_flight":
      throw problem({
        status: 409, code: "idempotency.in_flight", title: "Still running", retryable: true,
        detail: "A request with this Idempotency-Key is still being processed; retry shortly.",
        headers: { "Retry-After": String(IN_FLIGHT_RETRY_AFTER_S) },
      });
    case "mismatch":
      throw problem({ status: 422, code: "idempotency.mismatch", title: "Idempotency-Key reused", detail: "This Idempotency-Key was used with a different request body." });
    case "new":
      break;
  }
  const { lease } = begun;
  // Renewed while the request runs; a failed renewal is retried on the next tick (the lease
  // outlives two of them), and a lost lease only means another request took the key over.
  const renewal = setInterval(() => {
    s.idempotency.renew(accountId, key, lease, s.clock.now()).catch(() => undefined);
  }, IDEMPOTENCY_LEASE_MS / 3);
  renewal.unref();
  try {
    const result = await run({ key, recovered: begun.recovered ? { claimed_at: begun.claimed_at } : null });
    await s.idempotency.complete(accountId, key, lease, result);
    return result;
  } catch (e) {
    await s.idempotency.abandon(accountId, key, lease);
    throw e;
  } finally {
    clearInterval(renewal);
  }
}
