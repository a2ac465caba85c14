/** The response replayed for a repeated request. */
export interface StoredResponse {
  readonly status: number;
  /** Any JSON value. */
  readonly body: unknown;
}

export type IdempotencyBegin =
  /** First time (or the earlier record expired): the caller runs the request, then calls `complete` or `abandon`. */
  | { readonly state: "new" }
  /** The same request is still running elsewhere (answer 409). */
  | { readonly state: "in_flight" }
  /** The key was used with another request body (answer 422). */
  | { readonly state: "mismatch" }
  /** Replay this response. */
  | { readonly state: "done"; readonly response: StoredResponse };

/**
 * `Idempotency-Key` records per account, shared by every replica. A record expires 24 h after
 * the request that created it; after that the key may be used again.
 */
export interface IdempotencyStore {
  /** Atomically claims the key, or reports why it cannot be claimed. */
  begin(accountId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyBegin>;
  /** Stores the response of a claimed key for replay. */
  complete(accountId: string, key: string, response: StoredResponse): Promise<void>;
  /** Frees a claimed key whose request produced nothing worth replaying (e.g. it crashed). */
  abandon(accountId: string, key: string): Promise<void>;
  /** Deletes expired records; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
