import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, InvalidCursorError } from "./history-cursor.js";

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
