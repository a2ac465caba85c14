/** A clock tests can set and move; the core never reads the real time itself. */
export interface TestClock {
  now(): Date;
  set(at: Date | string): void;
  advance(ms: number): void;
}

export function fixedClock(start: Date | string = "2026-11-01T00:00:00Z"): TestClock {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (at) => {
      t = new Date(at).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
