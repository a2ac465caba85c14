import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, InvalidCursorError, openCursor, sealCursor } from "./history-cursor.js";

describe("history cursor", () => {
  it("round-trips a position, ids with any characters included", () => {
    const at = { created_at: "2026-11-01T12:00:00.123Z", id: "chk_ünï|\"code\"" };
    expect(decodeCursor(encodeCursor(at))).toEqual(at);
  });

  it("refuses anything it did not issue", () => {
    for (const bad of ["", "zz", "abc", encodeCursor({ created_at: "not a date", id: "x" }), "7b2261223a317d"]) {
      expect(() => decodeCursor(bad)).toThrow(InvalidCursorError);
    }
  });
});

describe("sealed history cursor", () => {
  const key = new TextEncoder().encode("k".repeat(32));
  const raw = encodeCursor({ created_at: "2026-11-01T12:00:00.000Z", id: "chk_1" });

  it("opens what it sealed, for the same account and key", () => {
    const sealed = sealCursor(raw, "acc_a", key);
    expect(sealed.startsWith(`${raw}.`)).toBe(true);
    expect(openCursor(sealed, "acc_a", key)).toBe(raw);
  });

  it("refuses an edited position, an edited MAC, another account, another key and an unsealed cursor", () => {
    const sealed = sealCursor(raw, "acc_a", key);
    const other = encodeCursor({ created_at: "2030-01-01T00:00:00.000Z", id: "chk_1" });
    const lastMac = sealed.at(-1) === "A" ? "B" : "A";
    for (const [bad, account, k] of [
      [`${other}${sealed.slice(raw.length)}`, "acc_a", key],
      [sealed.slice(0, -1) + lastMac, "acc_a", key],
      [sealed, "acc_b", key],
      [sealed, "acc_a", new TextEncoder().encode("j".repeat(32))],
      [raw, "acc_a", key],
      ["", "acc_a", key],
    ] as const) {
      expect(() => openCursor(bad, account, k)).toThrow(InvalidCursorError);
    }
  });
});
