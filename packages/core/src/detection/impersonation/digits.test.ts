import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripDigits } from "./digits.js";

describe("stripDigits", () => {
  it("is the string without its digits, or null when it has none", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{0,24}$/), (s) => {
        expect(stripDigits(s)).toBe(/\d/.test(s) ? s.replace(/\d/g, "") : null);
      }),
      { numRuns: 3000 },
    );
  });
});
