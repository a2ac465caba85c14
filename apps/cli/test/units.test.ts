// The pieces of the CLI that need no process: readers, rendering, dates, progress, settings.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatDuration, progressBar } from "../src/batch/progress.js";
import { openInput, splitRecord, type InputItem } from "../src/batch/readers.js";
import { csvRecord, csvSafe, renderCsv } from "../src/batch/render.js";
import { CliError, EXIT, worst } from "../src/exit.js";
import { colorEnabled, displayWidth, showInput } from "../src/io.js";
import { remoteTarget } from "../src/remote.js";
import { parseWhen } from "../src/when.js";

async function read(text: string, format: "text" | "csv" | "jsonl", o: { column?: string; noHeader?: boolean; field?: string } = {}): Promise<InputItem[]> {
  const input = await openInput("-", { format, ...o }, { stdin: Readable.from([Buffer.from(text)]), cwd: "/" });
  const out: InputItem[] = [];
  for await (const i of input.items()) out.push(i);
  return out;
}

describe("input readers", () => {
  it("text: skips blanks and comments, keeps line numbers, strips a BOM and CRLF", async () => {
    expect(await read("\uFEFFa.com\r\n\r\n# note\r\n  b.com  \r\n", "text")).toEqual([
      { kind: "entity", line: 1, value: "a.com" },
      { kind: "entity", line: 4, value: "b.com" },
    ]);
  });

  it("csv: quoted fields over lines, a broken row resynchronised on the next line, header choice", async () => {
    const items = await read('id,Domain\n1,"a.com"\n2,"multi\nline"\n3,"never closed\n4,b.com\n5\n', "csv");
    expect(items).toEqual([
      { kind: "entity", line: 2, value: "a.com" },
      { kind: "entity", line: 3, value: "multi\nline" },
      { kind: "bad", line: 5, reason: "unreadable CSV row (a quote is never closed)" },
      { kind: "entity", line: 6, value: "b.com" },
      { kind: "bad", line: 7, reason: "row has no column 2" },
    ]);
    expect(await read("x.com,y.com\n", "csv", { noHeader: true, column: "2" })).toEqual([{ kind: "entity", line: 1, value: "y.com" }]);
    await expect(read("a,b\n", "csv", { column: "9" })).rejects.toThrow(CliError);
  });

  it("splitRecord follows RFC 4180", () => {
    expect(splitRecord('a,"b,c","d""e",', ",")).toEqual({ fields: ["a", "b,c", 'd"e', ""] });
    expect(splitRecord('a,"b', ",")).toEqual({ open: true });
    expect(splitRecord('"a"x,b', ",")).toHaveProperty("error");
    expect(splitRecord('5"6,b', ",")).toEqual({ fields: ['5"6', "b"] });
    expect(splitRecord("a\tb", "\t")).toEqual({ fields: ["a", "b"] });
  });

  it("jsonl: strings and objects, bad JSON and missing fields reported, unknown types refused per line", async () => {
    const items = await read('"a.com"\n{"entity_value":"b.com","type":"domain"}\n{bad\n[1]\n{"entity_value":"c.com","type":"planet"}\n{"value":"d.com"}\n', "jsonl");
    expect(items).toEqual([
      { kind: "entity", line: 1, value: "a.com" },
      { kind: "entity", line: 2, value: "b.com", type: "domain" },
      { kind: "bad", line: 3, reason: "not valid JSON" },
      { kind: "bad", line: 4, reason: "expected a JSON object or string" },
      { kind: "bad", line: 5, reason: expect.stringContaining('unknown type "planet"') as string },
      { kind: "entity", line: 6, value: "d.com" },
    ]);
  });

  it("refuses values longer than the API accepts", async () => {
    expect(await read(`${"a".repeat(4097)}\n`, "text")).toEqual([{ kind: "bad", line: 1, reason: "longer than 4096 characters" }]);
  });
});

describe("rendering and helpers", () => {
  it("CSV cells never start a formula and are quoted as RFC 4180 says", () => {
    expect(["=1+1", "+1", "-2", "@x", "\tx", "ok"].map(csvSafe)).toEqual(["'=1+1", "'+1", "'-2", "'@x", "'\tx", "ok"]);
    expect(csvRecord(["a", 'b"c', "d,e", "f\ng"])).toBe('a,"b""c","d,e","f\ng"\r\n');
  });

  it("a CSV record's top_reason is the rule's finding that names the brand, not the model's reading of the name", async () => {
    const { createScreener, leadSignal } = await import("@svc/core");
    const r = await createScreener().screen("secure-login-paypal.com.verify-account.xyz");
    if (!r.ok) throw new Error(r.error.message);
    const cells = renderCsv(3, r.verdict, leadSignal).split(",");
    expect(cells.slice(0, 2)).toEqual(["3", "secure-login-paypal.com.verify-account.xyz"]);
    expect(cells.slice(9).join(",")).toMatch(/^domain\.model_risk;.*,"Shows paypal\.com in the name, but the site is really verify-account\.xyz",chk_/);
  });

  it("dates: ISO, dates and ages", () => {
    const now = new Date("2026-11-22T12:00:00Z");
    expect(parseWhen("2026-11-01", "--since", now)).toBe("2026-11-01T00:00:00.000Z");
    expect(parseWhen("2026-11-01T10:00:00+02:00", "--since", now)).toBe("2026-11-01T08:00:00.000Z");
    expect(parseWhen("24h", "--since", now)).toBe("2026-11-21T12:00:00.000Z");
    expect(parseWhen("2w", "--since", now)).toBe("2026-11-08T12:00:00.000Z");
    expect(() => parseWhen("yesterday", "--since", now)).toThrow(/is not a date/);
  });

  it("colors only on a terminal, never with NO_COLOR, always with FORCE_COLOR", () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: "dumb" })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
    expect(displayWidth("\u001b[31mabc\u001b[39m")).toBe(3);
    expect(displayWidth("日本")).toBe(4);
    expect(showInput("a\u202eb")).toBe('"a\\u202eb"');
  });

  it("the progress bar draws only when enabled, with percent, rate and ETA", () => {
    let t = 0;
    let written = "";
    const stream = { write: (s: string) => ((written += s), true) } as unknown as NodeJS.WritableStream;
    const source = { totalBytes: 1000, bytesRead: () => 250 };
    const bar = progressBar(stream, true, source, (_f, s) => s, () => t);
    t = 1000;
    bar.tick(500);
    expect(written).toContain(" 25%  500 screened  500/s  ETA 0:03");
    bar.log("line 3: bad — skipped");
    expect(written).toContain("\r\u001b[Kline 3: bad — skipped\n");
    bar.done();
    expect(written.endsWith("\r\u001b[K")).toBe(true);
    let quiet = "";
    const off = progressBar({ write: (s: string) => ((quiet += s), true) } as unknown as NodeJS.WritableStream, false, source, (_f, s) => s, () => t);
    off.tick(10);
    off.done();
    expect(quiet).toBe("");
    expect(formatDuration(3725)).toBe("1:02:05");
  });

  it("remote settings: flags over environment, advice when something is missing", () => {
    expect(remoteTarget({}, {})).toBeNull();
    expect(remoteTarget({}, { SVC_URL: "http://h:1", SVC_API_KEY: "k" })).toEqual({ url: "http://h:1", key: "k" });
    expect(remoteTarget({ url: "https://x", key: "flag" }, { SVC_URL: "http://h:1", SVC_API_KEY: "k" })).toEqual({ url: "https://x", key: "flag" });
    expect(() => remoteTarget({ url: "ftp://x", key: "k" }, {})).toThrow(/http:\/\/ or https:\/\//);
    expect(() => remoteTarget({ key: "k" }, {})).toThrow(/--key was given without a server URL/);
    expect(worst(EXIT.failOn, EXIT.unavailable)).toBe(EXIT.unavailable);
    expect(worst(EXIT.usage, EXIT.failOn)).toBe(EXIT.usage);
  });
});
