import type { Transformer } from "grammy";

export interface FloodControlOptions {
  /** Waits between attempts; injectable so tests run on a fake clock. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly maxRetries?: number;
  /** A longer `retry_after` than this fails the call instead of stalling a webhook for minutes. */
  readonly maxDelaySeconds?: number;
  readonly onWait?: (method: string, seconds: number) => void;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Outgoing flood control: when the Bot API answers 429 with `parameters.retry_after`, wait
 * that long and try again, a bounded number of times. Telegram does not publish exact
 * limits (grammy.dev/advanced/flood), so honouring its own retry_after is the one reliable
 * rule. Other errors pass through untouched.
 */
export function floodControl(options: FloodControlOptions = {}): Transformer {
  const sleep = options.sleep ?? realSleep;
  const maxRetries = options.maxRetries ?? 3;
  const maxDelay = options.maxDelaySeconds ?? 60;
  return async (prev, method, payload, signal) => {
    for (let attempt = 0; ; attempt++) {
      const res = await prev(method, payload, signal);
      if (res.ok || res.error_code !== 429 || attempt >= maxRetries) return res;
      const wait = res.parameters?.retry_after;
      if (wait === undefined || wait > maxDelay || signal?.aborted) return res;
      options.onWait?.(method, wait);
      await sleep(wait * 1000);
    }
  };
}
