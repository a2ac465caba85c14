import type { Clock, ScreenOutcome, ScreeningPort } from "./ports.js";
import { isVerdict } from "./ports.js";

/**
 * A short-lived, bounded cache in front of the screening port, keyed by entity id. Chats
 * repeat the same links (a raid posts one scam link a hundred times), so this keeps the
 * engine from redoing identical work, while the short TTL lets new intelligence show up
 * within minutes. Concurrent lookups of one id share a single screening call. Errors are not
 * cached: "could not check" must never stick as an answer.
 */
export interface VerdictCacheOptions {
  readonly ttlMs?: number;
  readonly maxEntries?: number;
}

export class VerdictCache {
  private readonly entries = new Map<string, { readonly outcome: ScreenOutcome; readonly expires: number }>();
  private readonly inFlight = new Map<string, Promise<ScreenOutcome>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  hits = 0;
  misses = 0;

  constructor(
    private readonly port: ScreeningPort,
    private readonly clock: Clock,
    options: VerdictCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.maxEntries = options.maxEntries ?? 5_000;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Entity ids currently cached (for inspection in tests: ids only, never message text). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** A fresh cached outcome, without screening or touching recency (for ordering work). */
  peek(id: string): ScreenOutcome | null {
    const hit = this.entries.get(id);
    return hit && hit.expires > this.clock.now().getTime() ? hit.outcome : null;
  }

  async screen(id: string, value: string): Promise<ScreenOutcome> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(id);
    if (hit && hit.expires > now) {
      // Map order is insertion order: re-inserting makes this the most recently used.
      this.entries.delete(id);
      this.entries.set(id, hit);
      this.hits++;
      return hit.outcome;
    }
    if (hit) this.entries.delete(id);
    const pending = this.inFlight.get(id);
    if (pending) return pending;
    this.misses++;
    const p = this.port
      .screen(value)
      .catch((e: unknown): ScreenOutcome => ({ error: { code: "screening.unavailable", message: e instanceof Error ? e.message : "screening failed" } }))
      .then((outcome) => {
        if (isVerdict(outcome)) {
          this.entries.set(id, { outcome, expires: this.clock.now().getTime() + this.ttlMs });
          while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
        }
        return outcome;
      })
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, p);
    return p;
  }

  /** Queue depth for /status: screenings waiting on the engine right now. */
  get pending(): number {
    return this.inFlight.size;
  }
}
