import { describe, expect, it } from "vitest";
import { parsePlainList } from "./plain-list.js";

const src = { source: "test-list" };

describe("parsePlainList", () => {
  it("reads one entity per line, lower-cased and trimmed, ignoring blanks and comments", () => {
    const r = parsePlainList("# header\n\nEvil.COM\n  phish.example.net  \n# another\n", src);
    expect(r.records).toEqual([
      { value: "evil.com", list: "block", source: "test-list" },
      { value: "phish.example.net", list: "block", source: "test-list" },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it("handles CRLF, CR and a byte-order mark", () => {
    const r = parsePlainList("\uFEFFa.com\r\nb.com\rc.com", src);
    expect(r.records.map((x) => x.value)).toEqual(["a.com", "b.com", "c.com"]);
  });

  it("strips trailing comments but keeps # inside a value", () => {
    const r = parsePlainList("evil.com # seen 2026-11-01\nhttp://x.test/#frag\n", src);
    expect(r.records.map((x) => x.value)).toEqual(["evil.com", "http://x.test/#frag"]);
  });

  it("applies list, type and label options", () => {
    const r = parsePlainList("good.com\n", { source: "ours", list: "allow", type: "domain", label: "partners" });
    expect(r.records).toEqual([{ value: "good.com", type: "domain", list: "allow", label: "partners", source: "ours" }]);
  });

  it("keeps the case of wallet addresses", () => {
    const r = parsePlainList("0x52908400098527886E0F7030069857D2E4169EE7\n", { source: "s", type: "wallet" });
    expect(r.records[0]?.value).toBe("0x52908400098527886E0F7030069857D2E4169EE7");
  });

  it("reports lines with inner whitespace, control or bidi characters, and over-long values", () => {
    const r = parsePlainList(`two words\nbad\u0007.com\nrtl\u202e.com\n${"a".repeat(3000)}\nfine.com\n`, src);
    expect(r.records.map((x) => x.value)).toEqual(["fine.com"]);
    expect(r.skipped).toEqual([
      { line: 1, reason: "contains whitespace" },
      { line: 2, reason: "contains control, bidi or zero-width characters" },
      { line: 3, reason: "contains control, bidi or zero-width characters" },
      { line: 4, reason: "value longer than 2048 characters" },
    ]);
  });

  it("reports duplicates with the line of the first occurrence", () => {
    const r = parsePlainList("a.com\nA.com\n", src);
    expect(r.records).toHaveLength(1);
    expect(r.skipped).toEqual([{ line: 2, reason: "duplicate of line 1" }]);
  });

  it("returns nothing for empty or comment-only input", () => {
    expect(parsePlainList("", src)).toEqual({ records: [], skipped: [] });
    expect(parsePlainList("# only\n\n   \n", src)).toEqual({ records: [], skipped: [] });
  });

  it("requires a source", () => {
    expect(() => parsePlainList("a.com", { source: " " })).toThrow(/source/);
  });
});
