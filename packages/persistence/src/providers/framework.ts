import type { Clock, Finding, ReputationProvider } from "@svc/core";
import { providerErrors } from "@svc/metrics";
import type { DataSource } from "typeorm";

/**
 * What an adapter is given about the entity: its type and canonical value, nothing else. The
 * type has no room for an account, a key of ours or another entity, so none can be sent.
 */
export interface ProviderQuery {
  readonly type: string;
  readonly value: string;
}

/** What an adapter may use for I/O: the fetch to call (always with the signal) and the signal itself. */
export interface ProviderIo {
  readonly signal: AbortSignal;
  readonly fetch: typeof fetch;
}

/** One outside service, thin: builds its request from the query, reads its answer into findings. */
export interface ProviderAdapter {
  readonly name: string;
  readonly types: readonly string[];
  /**
   * Answers from data this process holds (a downloaded list, a fed file), not a call per entity:
   * no per-entity cache and no rate limit (there is no call to save); the breaker still applies.
   */
  readonly local?: boolean;
  /** Findings (none = nothing known: a negative answer, cached as such). Throws ProviderError on failure. */
  lookup(query: ProviderQuery, io: ProviderIo): Promise<readonly Finding[]>;
  /** A cheap request that shows the service is reachable with our configuration (`svc providers test`). */
  probe?(io: ProviderIo): Promise<string>;
}

export type ProviderErrorKind = "timeout" | "unreachable" | "http_status" | "rate_limited" | "malformed" | "circuit_open" | "rate_limit_local";

/** Why a provider could not answer. `retryable` failures are tried again (with backoff) within the deadline. */
export class ProviderError extends Error {
  override readonly name = "ProviderError";
  constructor(readonly kind: ProviderErrorKind, message: string, readonly retryable: boolean, readonly retryAfterMs: number | null = null) {
    super(message);
  }
}

/**
 * A GET or POST to a provider, failures mapped to ProviderError: network errors and 5xx are
 * retryable, 429 is retryable after its Retry-After, other statuses are not; a body that is not
 * JSON is malformed. 404 is given to the caller (`null`) since for several services it means "not known".
 */
export async function fetchJson(io: ProviderIo, provider: string, url: string, init: RequestInit = {}): Promise<unknown> {
  const text = await fetchText(io, provider, url, init);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError("malformed", `${provider} answered something that is not JSON`, false);
  }
}

/** As fetchJson, for a body that is text (a list); `null` on 404. */
export async function fetchText(io: ProviderIo, provider: string, url: string, init: RequestInit = {}): Promise<string | null> {
  let res: Response;
  try {
    res = await io.fetch(url, { ...init, signal: io.signal, redirect: "error" });
  } catch (e) {
    if (io.signal.aborted) throw new ProviderError("timeout", `${provider} did not answer in time`, true);
    const cause = (e as { cause?: { code?: string } }).cause;
    throw new ProviderError("unreachable", `${provider} is unreachable (${cause?.code ?? (e as Error).message})`, true);
  }
  if (res.status === 404) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  if (res.status === 429) {
    await res.body?.cancel().catch(() => undefined);
    throw new ProviderError("rate_limited", `${provider} answered 429 (rate limited)`, true, retryAfterMs(res.headers.get("retry-after")));
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new ProviderError("http_status", `${provider} answered HTTP ${res.status}`, res.status >= 500);
  }
  try {
    return await res.text();
  } catch {
    throw new ProviderError(io.signal.aborted ? "timeout" : "unreachable", `${provider} answer was cut off`, true);
  }
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const s = Number(header);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Shared cache of provider answers (database), with an in-process front for repeated entities. */
export interface ProviderCache {
  get(provider: string, key: string, now: Date): Promise<readonly Finding[] | null> | readonly Finding[] | null;
  put(provider: string, key: string, findings: readonly Finding[], now: Date, expiresAt: Date): Promise<void>;
}

/**
 * The provider_cache table, fronted by a small in-process map (bounded; entries keep their stored
 * expiry), so a repeated entity costs no query and replicas still share what one of them fetched.
 */
export class TypeOrmProviderCache implements ProviderCache {
  private readonly memory = new Map<string, { readonly findings: readonly Finding[]; readonly expires: number }>();
  private puts = 0;
  /**
   * `purgeEvery`: after this many writes, one write also deletes up to 500 expired rows, so the
   * table keeps itself small without a scheduled job.
   */
  constructor(private readonly ds: DataSource, private readonly maxMemoryEntries = 10_000, private readonly purgeEvery = 500) {}

  get(provider: string, key: string, now: Date): Promise<readonly Finding[] | null> | readonly Finding[] | null {
    const k = `${provider}\u0000${key}`;
    const hit = this.memory.get(k);
    if (hit !== undefined) {
      if (hit.expires > now.getTime()) return hit.findings;
      this.memory.delete(k);
    }
    return this.fromDatabase(provider, key, k, now);
  }

  private async fromDatabase(provider: string, key: string, k: string, now: Date): Promise<readonly Finding[] | null> {
    const rows = (await this.ds.query(`SELECT findings, expires_at FROM provider_cache WHERE provider = $1 AND entity_key = $2 AND expires_at > $3::timestamptz`, [provider, key, now])) as { findings: unknown; expires_at: Date | string }[];
    const row = rows[0];
    if (!row) return null;
    const findings = (typeof row.findings === "string" ? JSON.parse(row.findings) : row.findings) as Finding[];
    this.remember(k, findings, new Date(row.expires_at).getTime());
    return findings;
  }

  async put(provider: string, key: string, findings: readonly Finding[], now: Date, expiresAt: Date): Promise<void> {
    this.remember(`${provider}\u0000${key}`, findings, expiresAt.getTime());
    await this.ds.query(
      `INSERT INTO provider_cache (provider, entity_key, findings, fetched_at, expires_at) VALUES ($1, $2, $3::jsonb, $4::timestamptz, $5::timestamptz)
       ON CONFLICT (provider, entity_key) DO UPDATE SET findings = EXCLUDED.findings, fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at`,
      [provider, key, JSON.stringify(findings), now, expiresAt],
    );
    if (++this.puts % this.purgeEvery === 0) await this.purgeExpired(now, 500);
  }

  /** Deletes expired rows (at most `limit`); returns how many. */
  async purgeExpired(now: Date, limit = 100_000): Promise<number> {
    const r = (await this.ds.query(
      `DELETE FROM provider_cache WHERE (provider, entity_key) IN (SELECT provider, entity_key FROM provider_cache WHERE expires_at <= $1::timestamptz LIMIT $2) RETURNING 1`,
      [now, limit],
    )) as unknown[];
    return r.length;
  }

  private remember(k: string, findings: readonly Finding[], expires: number): void {
    if (this.memory.size >= this.maxMemoryEntries) {
      const oldest = this.memory.keys().next();
      if (!oldest.done) this.memory.delete(oldest.value);
    }
    this.memory.set(k, { findings, expires });
  }
}

/** A cache in memory only (tests, the embedded library without a database). */
export class MemoryProviderCache implements ProviderCache {
  private readonly entries = new Map<string, { readonly findings: readonly Finding[]; readonly expires: number }>();
  get(provider: string, key: string, now: Date): readonly Finding[] | null {
    const e = this.entries.get(`${provider}\u0000${key}`);
    return e !== undefined && e.expires > now.getTime() ? e.findings : null;
  }
  put(provider: string, key: string, findings: readonly Finding[], _now: Date, expiresAt: Date): Promise<void> {
    this.entries.set(`${provider}\u0000${key}`, { findings, expires: expiresAt.getTime() });
    return Promise.resolve();
  }
}

export interface ResilienceOptions {
  /** Per attempt; the check's own deadline (its signal) bounds all attempts together. */
  readonly attemptTimeoutMs: number;
  /** Attempts after the first, for retryable failures. */
  readonly retries: number;
  /** First backoff; doubled each retry, with jitter; a 429's Retry-After when longer. */
  readonly backoffMs: number;
  /** Consecutive failures that open the circuit, and how long it stays open before one trial call. */
  readonly breakerFailures: number;
  readonly breakerCooldownMs: number;
  /** Calls allowed per minute to the service (token bucket, this process); over it the provider is unavailable. */
  readonly perMinute: number;
  /** How long an answer with findings, and one without, is kept. */
  readonly positiveTtlMs: number;
  readonly negativeTtlMs: number;
}

export const DEFAULT_RESILIENCE: ResilienceOptions = {
  attemptTimeoutMs: 1_500,
  retries: 1,
  backoffMs: 100,
  breakerFailures: 5,
  breakerCooldownMs: 30_000,
  perMinute: 600,
  positiveTtlMs: 24 * 3_600_000,
  negativeTtlMs: 6 * 3_600_000,
};

/** Monotonic milliseconds (timeouts, breaker, bucket); the Clock dates cache entries. */
const monotonic = (): number => performance.now();

/**
 * A ReputationProvider around one adapter: the shared cache first, then (circuit closed, within
 * the rate) the service with a timeout per attempt and retries with backoff, all inside the
 * check's deadline. Any failure rejects, which the check records in `coverage.unavailable`.
 */
export class ResilientProvider implements ReputationProvider {
  readonly name: string;
  readonly types: readonly string[];
  private failures = 0;
  private openUntil = 0;
  private tokens: number;
  private refilledAt = monotonic();

  constructor(
    private readonly adapter: ProviderAdapter,
    private readonly cache: ProviderCache,
    private readonly clock: Clock,
    private readonly options: ResilienceOptions = DEFAULT_RESILIENCE,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.name = adapter.name;
    this.types = adapter.types;
    this.tokens = options.perMinute;
  }

  check(entityType: string, value: string, signal: AbortSignal): Promise<readonly Finding[]> {
    if (this.adapter.local === true) return this.fromLocal({ type: entityType, value }, signal);
    const key = `${entityType}:${value}`;
    const cached = this.cache.get(this.name, key, this.clock.now());
    // The hit path stays synchronous up to here: no query, no timer.
    if (cached !== null && !(cached instanceof Promise)) return Promise.resolve(cached as readonly Finding[]);
    if (cached instanceof Promise) {
      return cached.then((c) => c ?? this.fetchFresh({ type: entityType, value }, key, signal), () => this.fetchFresh({ type: entityType, value }, key, signal));
    }
    return this.fetchFresh({ type: entityType, value }, key, signal);
  }

  /** The breaker's state, for `svc providers test` and logs. */
  get circuit(): "closed" | "open" {
    return this.openUntil > monotonic() ? "open" : "closed";
  }

  /** Asks the service directly (no cache, no breaker): is it configured and reachable? */
  async probe(timeoutMs: number): Promise<string> {
    const signal = AbortSignal.timeout(timeoutMs);
    const io = { signal, fetch: this.fetchImpl };
    if (this.adapter.probe) return this.adapter.probe(io);
    return "configured (no probe)";
  }

  /** A local adapter: no cache, no rate limit, no retries (nothing remote to retry); failures still count for the breaker. */
  private async fromLocal(query: ProviderQuery, signal: AbortSignal): Promise<readonly Finding[]> {
    if (this.openUntil > monotonic()) throw new ProviderError("circuit_open", `${this.name} is paused after ${this.failures} failures in a row`, false);
    try {
      const findings = await this.adapter.lookup(query, { signal, fetch: this.fetchImpl });
      this.failures = 0;
      return findings;
    } catch (e) {
      this.recordFailure();
      throw e instanceof ProviderError ? e : new ProviderError(signal.aborted ? "timeout" : "malformed", `${this.name}: ${(e as Error).message}`, false);
    }
  }

  private async fetchFresh(query: ProviderQuery, key: string, signal: AbortSignal): Promise<readonly Finding[]> {
    const now = monotonic();
    if (this.openUntil > now) throw this.counted(new ProviderError("circuit_open", `${this.name} is paused after ${this.failures} failures in a row`, false));
    this.refill(now);
    if (this.tokens < 1) throw this.counted(new ProviderError("rate_limit_local", `${this.name} is over its rate limit (${this.options.perMinute}/min)`, false));
    this.tokens -= 1;
    let attempt = 0;
    for (;;) {
      const attemptSignal = AbortSignal.any([signal, AbortSignal.timeout(this.options.attemptTimeoutMs)]);
      try {
        const findings = await this.adapter.lookup(query, { signal: attemptSignal, fetch: this.fetchImpl });
        this.failures = 0;
        const at = this.clock.now();
        // A finding that says when it stops being true (Safe Browsing's cacheDuration) caps the time it is kept.
        let expires = at.getTime() + (findings.length > 0 ? this.options.positiveTtlMs : this.options.negativeTtlMs);
        for (const f of findings) if (f.expires_at) expires = Math.min(expires, Date.parse(f.expires_at) || expires);
        if (expires > at.getTime()) await this.cache.put(this.name, key, findings, at, new Date(expires)).catch(() => undefined);
        return findings;
      } catch (e) {
        const err = e instanceof ProviderError ? e : new ProviderError(attemptSignal.aborted ? "timeout" : "malformed", `${this.name}: ${(e as Error).message}`, attemptSignal.aborted);
        if (signal.aborted || !err.retryable || attempt >= this.options.retries) {
          this.recordFailure();
          throw this.counted(err);
        }
        // A retry is a call too: it needs a token of the rate limit.
        this.refill(monotonic());
        if (this.tokens < 1) {
          this.recordFailure();
          throw this.counted(err);
        }
        this.tokens -= 1;
        attempt++;
        const backoff = Math.max(err.retryAfterMs ?? 0, this.options.backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
        await abortableSleep(backoff, signal).catch(() => undefined);
        if (signal.aborted) {
          this.recordFailure();
          throw this.counted(err);
        }
      }
    }
  }

  /** A lookup that failed for good (after its retries): counted by provider and kind. */
  private counted(err: ProviderError): ProviderError {
    providerErrors.inc({ provider: this.name, kind: err.kind });
    return err;
  }

  private recordFailure(): void {
    this.failures++;
    if (this.failures >= this.options.breakerFailures) this.openUntil = monotonic() + this.options.breakerCooldownMs;
  }

  private refill(now: number): void {
    const per = this.options.perMinute / 60_000;
    this.tokens = Math.min(this.options.perMinute, this.tokens + (now - this.refilledAt) * per);
    this.refilledAt = now;
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("aborted"));
    const t = setTimeout(() => { signal.removeEventListener("abort", onAbort); resolve(); }, ms);
    t.unref?.();
    const onAbort = (): void => { clearTimeout(t); reject(new Error("aborted")); };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
