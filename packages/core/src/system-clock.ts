import type { Clock } from "./ports/evidence.js";

/**
 * The system's clock: the one file of @svc/core that reads the time or starts a timer (a lint
 * rule refuses them everywhere else). The embedded library defaults to it (decision 0004); the
 * servers pass it in from their composition. A deadline is `AbortSignal.timeout`: a timer per
 * check, owned by the signal, unref'd by Node, never shared state.
 */
export const systemClock: Clock = {
  now: () => new Date(),
  deadline: (ms) => AbortSignal.timeout(ms),
};
