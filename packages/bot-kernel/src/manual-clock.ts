import type { Clock } from "./ports.js";

/** The system clock, deadlines included (the one @svc/core screens with). */
export { systemClock } from "@svc/core";

/** A clock that moves only when told: anti-raid windows, lockdown expiry and learn periods in tests. */
export class ManualClock implements Clock {
  private t: number;

  constructor(start: Date | string = "2026-03-02T09:00:00.000Z") {
    this.t = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.t);
  }

  advance(ms: number): Date {
    this.t += ms;
    return this.now();
  }

  set(to: Date | string): void {
    this.t = new Date(to).getTime();
  }
}
