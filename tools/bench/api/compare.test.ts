import { describe, expect, it } from "vitest";
import { parseRun } from "./compare.js";

// The summary lines of tools/bench/api/main.ts --only=pg, as it prints them.
const summary = (errors = "0 / 0") => `
== summary (14s in all; req/s ÷ baseline req/s; figure ÷ target; load average 2.02 2.48 2.39 at the end)
                                                       value  target              ÷ target  ÷ baseline
PostgreSQL: POST /v1/screen checks/s                   1,102  ≥ 5,000                 0.22              MISSED
PostgreSQL: ratio to baseline                            n/a  ≥ 0.15 (goal 0.25)       n/a              n/a
PostgreSQL: latency p50 / p99 ms                    41 / 1,100  p99 ≤ 50                2.00              MISSED
PostgreSQL: CPU ms per check (API+PG+client)  0.84+0.38+0.14  ≤ 0.40 in all           3.39              MISSED
PostgreSQL: non-2xx / errors                           ${errors}  0                                         met
`;

describe("compare: reading a run's summary", () => {
  it("takes checks/s, the API's and PostgreSQL's CPU per check and the p99", () => {
    expect(parseRun(summary())).toEqual({ checksPerSec: 1102, apiMs: 0.84, pgMs: 0.38, p99: 1100 });
  });
  it("refuses a run with failed answers, or without a summary", () => {
    expect(() => parseRun(summary("3 / 0"))).toThrow(/non-2xx answers or errors/);
    expect(() => parseRun(summary("0 / 1"))).toThrow(/non-2xx answers or errors/);
    expect(() => parseRun("the API did not start")).toThrow(/no summary/);
  });
});
