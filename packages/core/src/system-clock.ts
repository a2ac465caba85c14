import { setMaxListeners } from "node:events";
import type { Clock } from "./ports/evidence.js";

/** Deadlines falling due within the same few milliseconds share one signal (and one timer). */
const DEADLINE_GRAIN_MS = 5;

/**
 * `AbortSignal.timeout` for every check costs more than the in-memory lookups it guards (a timer,
 * a weak reference and a finalizer each). The checks that ask for a deadline within the same
 * DEADLINE_GRAIN_MS get one signal, aborted at the end of that slot: a deadline fires at most
 * that much late, never early. Each check takes its listener off the shared signal when it is
 * done, so the signal may carry many at once: no listener-count warning for it.
 */
function sharedDeadlines(): (ms: number) => AbortSignal {
  let last: { readonly at: number; readonly signal: AbortSignal } | null = null;
  return (ms) => {
    const now = Date.now();
    const at = Math.ceil((now + ms) / DEADLINE_GRAIN_MS) * DEADLINE_GRAIN_MS;
    if (last !== null && last.at === at) return last.signal;
    const signal = AbortSignal.timeout(at - now);
    setMaxListeners(Infinity, signal);
    last = { at, signal };
    return signal;
  };
}

/**
 * The system's clock: the one file of @svc/core that reads the time or starts a timer (a lint
 * rule and tools/core/keeps-no-time.test.ts refuse them everywhere else). The embedded library
 * defaults to it (decision 0004); the servers pass it in from their composition.
 */
export const systemClock: Clock = {
  now: () => new Date(),
  deadline: sharedDeadlines(),
};
