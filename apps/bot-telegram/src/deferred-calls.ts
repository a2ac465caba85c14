import type { Clock } from "@svc/bot-kernel";
import { GrammyError } from "grammy";

/**
 * Bot API calls that Telegram asked to wait for longer than flood control waits inline (a 429
 * with a long `retry_after`): kept and made once the wait is over, instead of dropped. Bounded;
 * in memory (a restart loses what is waiting, as it loses an in-flight call). `runDue` is
 * called on the bot's timer and before each update.
 */
export interface DeferredCall {
  readonly method: string;
  readonly dueAt: number;
  readonly run: () => Promise<unknown>;
}

/** The wait Telegram asked for, when the error is a 429. */
export function retryAfter(e: unknown): number | null {
  return e instanceof GrammyError && e.error_code === 429 ? (e.parameters.retry_after ?? 1) : null;
}

export class DeferredCalls {
  private queue: DeferredCall[] = [];
  private running: Promise<void> | null = null;
  /** Calls dropped because the queue was full (oldest first). */
  dropped = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly max = 10_000,
  ) {}

  get size(): number {
    return this.queue.length;
  }

  defer(method: string, seconds: number, run: () => Promise<unknown>): void {
    this.queue.push({ method, dueAt: this.clock.now().getTime() + seconds * 1000, run });
    while (this.queue.length > this.max) {
      this.queue.shift();
      this.dropped++;
    }
  }

  /** Makes every call that is due, in the order they were deferred; one run at a time. */
  runDue(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.drain().finally(() => (this.running = null));
    return this.running;
  }

  private async drain(): Promise<void> {
    const now = this.clock.now().getTime();
    const due = this.queue.filter((c) => c.dueAt <= now);
    if (due.length === 0) return;
    this.queue = this.queue.filter((c) => c.dueAt > now);
    for (let i = 0; i < due.length; i++) {
      const c = due[i] as DeferredCall;
      try {
        await c.run();
      } catch (e) {
        const wait = retryAfter(e);
        if (wait === null) {
          this.onError(e);
          continue;
        }
        // Still limited: this call and the rest wait again, keeping their order.
        for (const rest of due.slice(i)) this.defer(rest.method, wait, rest.run);
        return;
      }
    }
  }
}
