import { describe, expect, it } from "vitest";
import { parseIntelCsv, readCsv } from "./csv.js";

const src = { source: "csv-feed" };

describe("readCsv", () => {
  it("reads quoted fields with commas, escaped quotes and line breaks", () => {
    const r = readCsv('a,"b,c","say ""hi""","multi\r\nline"\r\nx,y,z,w\r\n');
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([
      { line: 1, fields: ["a", "b,c", 'say "hi"', "multi\nline"] },
      { line: 3, fields: ["x", "y", "z", "w"] },
    ]);
  });

  it("keeps empty fields and skips blank lines", () => {
    expect(readCsv("a,,\n\n,b,\n").rows).toEqual([
      { line: 1, fields: ["a", "", ""] },
      { line: 3, fields: ["", "b", ""] },
    ]);
  });

  it("reports stray quotes and resynchronises on the next line", () => {
    const r = readCsv('a,b"c\n"x"y,z\nok,1\n');
    expect(r.errors).toEqual([
      { line: 1, reason: "quote inside an unquoted field" },
      { line: 2, reason: "characters after a closing quote" },
    ]);
    expect(r.rows).toEqual([{ line: 3, fields: ["ok", "1"] }]);
  });

  it("reports an unterminated quote", () => {
    const r = readCsv('ok,1\n"never closed,2\nmore,3\n');
    expect(r.rows).toEqual([{ line: 1, fields: ["ok", "1"] }]);
    expect(r.errors).toEqual([{ line: 2, reason: "unterminated quoted field" }]);
  });
});

describe("parseIntelCsv", () => {
  it("reads entity,type,label,source rows after the header", () => {
    const text = "entity,type,label,source\r\nEvil.com,domain,phishing,urlhaus\r\n0xAbC0000000000000000000000000000000000001,wallet,drainer,\r\n";
    const r = parseIntelCsv(text, src);
    expect(r.records).toEqual([
      { value: "evil.com", type: "domain", list: "block", label: "phishing", source: "urlhaus" },
      { value: "0xAbC0000000000000000000000000000000000001", type: "wallet", list: "block", label: "drainer", source: "csv-feed" },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it("accepts columns in any order, quoted cells and an optional list column", () => {
    const text = 'source,label,entity,type,list\n"feed, inc.","brand ""partner""",Good.com,DOMAIN,allow\n';
    const r = parseIntelCsv(text, src);
    expect(r.records).toEqual([{ value: "good.com", type: "domain", list: "allow", label: 'brand "partner"', source: "feed, inc." }]);
  });

  it("rejects a file whose header has no entity column", () => {
    const r = parseIntelCsv("value,type\nevil.com,domain\n", src);
    expect(r.records).toEqual([]);
    expect(r.skipped).toEqual([{ line: 1, reason: 'header row has no "entity" column (got: value, type)' }]);
  });

  it("reports rows with the wrong number of fields", () => {
    const r = parseIntelCsv("entity,type,label,source\na.com,domain\nb.com,domain,x,y,z\nc.com,domain,,\n", src);
    expect(r.records.map((x) => x.value)).toEqual(["c.com"]);
    expect(r.skipped).toEqual([
      { line: 2, reason: "expected 4 fields, got 2" },
      { line: 3, reason: "expected 4 fields, got 5" },
    ]);
  });

  it("reports empty entities, bad types, bad list values and duplicates", () => {
    const text = "entity,type,label,source,list\n,domain,,,\nx.com,not a type,,,\ny.com,domain,,,maybe\nz.com,domain,,,\nZ.com,domain,,,\n";
    const r = parseIntelCsv(text, src);
    expect(r.records.map((x) => x.value)).toEqual(["z.com"]);
    expect(r.skipped).toEqual([
      { line: 2, reason: "empty value" },
      { line: 3, reason: 'invalid type "not a type"' },
      { line: 4, reason: 'list must be "allow" or "block", got "maybe"' },
      { line: 6, reason: "duplicate of line 5" },
    ]);
  });

  it("reports malformed quoting with its line and keeps reading", () => {
    const r = parseIntelCsv('entity,type,label,source\nbad"row,domain,,\nok.com,domain,,\n', src);
    expect(r.records.map((x) => x.value)).toEqual(["ok.com"]);
    expect(r.skipped).toEqual([{ line: 2, reason: "quote inside an unquoted field" }]);
  });

  it("handles empty input and a header-only file", () => {
    expect(parseIntelCsv("", src)).toEqual({ records: [], skipped: [{ line: 0, reason: "no header row" }] });
    expect(parseIntelCsv("entity,type,label,source\r\n", src)).toEqual({ records: [], skipped: [] });
  });

  it("falls back to the options for empty type, label and list cells", () => {
    const r = parseIntelCsv("entity,type,label,source\nfoo.com,,,\n", { source: "s", type: "domain", label: "l", list: "allow" });
    expect(r.records).toEqual([{ value: "foo.com", type: "domain", list: "allow", label: "l", source: "s" }]);
  });
});
