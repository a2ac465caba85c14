import { describe, expect, it } from "vitest";
import { addBusinessDays, refundWindowOpen } from "./refund-window.js";

describe("refund window: 14 business days", () => {
  it("skips weekends", () => {
    // Monday 2 March 2026 + 14 business days = Friday 20 March.
    expect(addBusinessDays(new Date("2026-03-02T09:00:00Z"), 14).toISOString()).toBe("2026-03-20T09:00:00.000Z");
    // Friday + 1 business day = Monday.
    expect(addBusinessDays(new Date("2026-03-06T09:00:00Z"), 1).toISOString()).toBe("2026-03-09T09:00:00.000Z");
  });

  it.each<[string, boolean]>([
    ["2026-03-02T09:00:00Z", true],
    ["2026-03-16T09:00:00Z", true], // 14 calendar days, 10 business days
    ["2026-03-20T09:00:00Z", true],
    ["2026-03-20T09:00:01Z", false],
    ["2026-04-01T09:00:00Z", false],
    ["2026-03-01T09:00:00Z", false], // before the purchase
  ])("paid Mon 2 March, asked %s → %s", (now, open) => {
    expect(refundWindowOpen(new Date("2026-03-02T09:00:00Z"), new Date(now))).toBe(open);
  });
});
