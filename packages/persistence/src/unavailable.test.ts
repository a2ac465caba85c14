// Which errors mean "the database cannot be reached right now" (→ 503, retryable) and which do not.
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable.js";

const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises a database that is down, restarting or unreachable, also wrapped", () => {
    expect(isDatabaseUnavailable(coded("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(coded("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable(coded("08006"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("query failed"), { driverError: new Error("Query read timeout") }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")]))).toBe(true);
    expect(isDatabaseUnavailable(new Error("outer", { cause: coded("ECONNRESET") }))).toBe(true);
  });
  it("leaves bugs and bad data alone", () => {
    expect(isDatabaseUnavailable(coded("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(coded("42P01", "relation does not exist"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});
