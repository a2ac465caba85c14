import { describe, expect, it } from "vitest";
import { entityOf, fixedClock } from "./index.js";

describe("test helpers", () => {
  it("a fixed clock only moves when told", () => {
    const clock = fixedClock("2026-01-01T00:00:00Z");
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
    clock.advance(1500);
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:01.500Z");
    clock.set("2027-01-01T00:00:00Z");
    expect(clock.now().getUTCFullYear()).toBe(2027);
  });
  it("entityOf parses or throws with the reason", () => {
    expect(entityOf("PayPal.com").id).toBe("domain:paypal.com");
    expect(() => entityOf("not an entity")).toThrow(/entity\.unrecognized/);
  });
});
