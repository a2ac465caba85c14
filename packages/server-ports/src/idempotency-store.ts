/** The response replayed for a repeated request. */
export interface StoredResponse {
  readonly status: number;
  /** Any JSON value. */
  readonly body: unknown;
}

export type IdempotencyBegin =
  /**
   * The caller holds the key: it runs the request, renews the lease while it runs, then calls
   * `complete` or `abandon` with the lease. `recovered`: the key was taken over from a holder
   * whose lease ran out (its process died mid-request); what that request already did (e.g. a
   * job it created after `claimed_at`) should be found and answered, not done twice.
   */
  | { readonly state: "new"; readonly lease: string; readonly recovered: false }
  | { readonly state: "new"; readonly lease: string; readonly recovered: true; readonly claimed_at: Date }
  /** The same request is still running elsewhere (answer 409). */
  | { readonly state: "in_flight" }
  /** The key was used with another request body (answer 422). */
  | { readonly state: "mismatch" }
  /** Replay this response. */
  | { readonly state: "done"; readonly response: StoredResponse };

/**
 * `Idempotency-Key` records per account, shared by every replica. A record expires 24 h after
 * the request that created it; after that the key may be used again. A request in flight holds
 * the key by a lease it renews; a key whose holder stopped renewing (the process died) is taken
 * over by the next request with the same body.
 */
export interface IdempotencyStore {
  /** Atomically claims the key (or takes over a lapsed lease), or reports why it cannot be claimed. */
  begin(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyBegin>;
  /** Extends the lease to `now` + IDEMPOTENCY_LEASE_MS; false when the lease was lost (taken over, completed). */
  renew(accountId: string, key: string, lease: string, now: Date): Promise<boolean>;
  /** Stores the response of a claimed key for replay (a no-op for a lease that was lost). */
  complete(accountId: string, key: string, lease: string, response: StoredResponse): Promise<void>;
  /** Frees a claimed key whose request produced nothing worth replaying (e.g. it failed). */
  abandon(accountId: string, key: string, lease: string): Promise<void>;
  /** Deletes expired records; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
