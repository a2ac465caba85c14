// The `svc` command as users run it: real processes, off a terminal and on one. Each spawn costs
// about a second, so each test checks several things per run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svc, svcOnTty } from "./spawn.js";

let dir: string;
// eslint-disable-next-line no-control-regex -- looking for ANSI escapes is the point
const ANSI = /\u001b\[/;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 2,000 lines: good domains, a few bad lines at known places, a blank line and a comment. */
function twoThousandLines(): { text: string; bad: number[]; good: number } {
  const bad = new Map<number, string>([[10, "not a domain"], [500, "http://"], [1000, "x".repeat(5000)], [1500, "a..b.com"], [2000, "exa mple.com"]]);
  const lines: string[] = [];
  let good = 0;
  for (let n = 1; n <= 2000; n++) {
    if (bad.has(n)) lines.push(bad.get(n) as string);
    else if (n === 20) lines.push("");
    else if (n === 30) lines.push("# a comment");
    else {
      lines.push(n % 97 === 0 ? "paypa1.com" : `shop-${n}.example-store.com`);
      good++;
    }
  }
  return { text: `${lines.join("\n")}\n`, bad: [...bad.keys()], good };
}

describe("svc check", () => {
  it("prints a readable verdict with its reasons off a terminal, without colors", async () => {
    const r = await svc(["check", "paypa1.com", "google.com"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ENTITY\s+TYPE\s+RISK\s+ACTION\s+CONFIDENCE/);
    expect(r.stdout).toMatch(/paypa1\.com\s+domain\s+\d+ (high|critical)/);
    expect(r.stdout).toContain("Looks like paypal.com");
    expect(r.stdout).toMatch(/google\.com\s+domain\s+0 low\s+allow/);
    expect(r.stdout).toContain("not legal, financial or investment advice");
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stderr).toBe("");
  });

  it("--json prints the verdict as the API returns it; --fail-on high exits 1 for paypa1.com", async () => {
    const r = await svc(["check", "paypa1.com", "--json", "--fail-on", "high"]);
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["id", "entity", "risk_score", "risk_level", "recommended_action", "confidence", "confidence_score", "signals", "attributes", "coverage", "policy", "evaluated_at", "expires_at", "disclaimer"]);
    expect(v.id).toMatch(/^chk_[0-9a-z]{26}$/);
    expect(v.entity).toEqual({ type: "domain", value: "paypa1.com", input: "paypa1.com", id: "domain:paypa1.com" });
    expect(["high", "critical"]).toContain(v.risk_level);
    expect((v.signals as { code: string }[])[0]?.code).toBe("domain.lookalike_brand");
  });

  it("--fail-on below the verdicts exits 0; several entities give an array; an invalid one exits 2 and says why", async () => {
    const [ok, mixed, usage] = await Promise.all([
      svc(["check", "google.com", "--fail-on", "medium", "--json"]),
      svc(["check", "google.com", "no such thing", "--json"]),
      svc(["check", "--fail-on", "severe", "x.com"]),
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).risk_level).toBe("low");
    expect(mixed.code).toBe(2);
    expect(JSON.parse(mixed.stdout)).toHaveLength(1);
    expect(mixed.stderr).toContain('cannot screen "no such thing"');
    expect(mixed.stderr).toContain("entity.unrecognized");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("severe");
    expect(usage.stderr).toContain("--help");
  });

  it("--help shows examples and the exit codes", async () => {
    const [top, check] = await Promise.all([svc(["--help"]), svc(["check", "--help"])]);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("Exit codes: 0 ok · 1 a verdict reached --fail-on · 2 bad arguments or input");
    for (const c of ["check", "batch", "serve", "migrate", "graph", "history", "export", "report", "keys", "intel"]) expect(top.stdout).toContain(`  ${c}`);
    expect(check.stdout).toContain("Examples:");
    expect(check.stdout).toContain("$ svc check paypa1.com --json");
  });
});

describe("svc batch", () => {
  it("2,000 lines with a few bad ones: one result per good line, the bad ones reported by line number, a summary", async () => {
    const { text, bad, good } = twoThousandLines();
    writeFileSync(join(dir, "domains.txt"), text);
    const [r, threads] = await Promise.all([svc(["batch", join(dir, "domains.txt")]), svc(["batch", join(dir, "domains.txt"), "--workers", "2", "--output-format", "csv"])]);
    expect(r.code).toBe(0);
    // Worker threads: the same results, in the same order.
    expect(threads.code, threads.stderr).toBe(0);
    const rows = threads.stdout.trim().split("\r\n").slice(1).map((l) => l.split(",").slice(0, 6).join(","));
    expect(rows).toHaveLength(good);
    expect(threads.stderr).toContain("in-process on 2 threads");
    const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { entity: { input: string }; risk_level: string });
    expect(out).toHaveLength(good);
    expect(out[0]?.entity.input).toBe("shop-1.example-store.com");
    for (const n of bad) expect(r.stderr).toMatch(new RegExp(`^line ${n}: .* — skipped$`, "m"));
    expect(r.stderr).toContain("longer than 4096 characters");
    expect(r.stderr).toMatch(/1,998 lines: 1,993 screened, 5 skipped — critical [\d,]+ · high [\d,]+ · medium [\d,]+ · low [\d,]+/);
    expect(rows.map((l) => l.split(",")[1])).toEqual(out.map((v) => v.entity.input));
    expect(out.filter((v) => v.entity.input === "paypa1.com").every((v) => ["high", "critical"].includes(v.risk_level))).toBe(true);
    // Off a terminal: no progress bar, no colors.
    expect(r.stderr).not.toMatch(ANSI);
    expect(r.stderr).not.toContain("ETA");
  });

  it("CSV in (chosen column, type column), CSV out with formula-safe cells, --fail-on", async () => {
    writeFileSync(join(dir, "leads.csv"), 'name,website,type\r\nAcme,acme-widgets.com,domain\r\n"Evil, Inc.",paypa1.com,\r\nBroken,"unterminated\r\nBad type,x.com,planet\r\nFormula,=cmd|calc,\r\nPhone,+18005550100,phone\r\n');
    const r = await svc(["batch", join(dir, "leads.csv"), "--column", "website", "--out", join(dir, "out.csv"), "--fail-on", "high"]);
    expect(r.code).toBe(1);
    const csv = readFileSync(join(dir, "out.csv"), "utf8").split("\r\n");
    expect(csv[0]).toBe("line,input,entity_type,entity_value,risk_score,risk_level,recommended_action,confidence,confidence_score,signals,top_reason,check_id");
    expect(csv[1]).toMatch(/^2,acme-widgets\.com,domain,acme-widgets\.com,\d+,low,/);
    expect(csv[2]).toMatch(/^3,paypa1\.com,domain,paypa1\.com,\d+,(high|critical),/);
    expect(csv.some((l) => l.startsWith("7,'+18005550100,phone,"))).toBe(true);
    expect(r.stderr).toMatch(/^line 4: unreadable CSV row \(a quote is never closed\) — skipped$/m);
    expect(r.stderr).toMatch(/^line 5: unknown type "planet"/m);
    expect(r.stderr).toMatch(/^line 6: "=cmd\|calc": .*skipped$/m);
    expect(r.stderr).toContain("reading column 2 (\"website\") with types from column 3");
    expect(r.stderr).toMatch(/verdict\(s\) reached --fail-on high/);
  });

  it("JSONL in with --field, from standard input; JSONL out", async () => {
    const input = ['{"url":"https://paypa1.com/login","type":"url"}', "not json", '{"other":1}', '"google.com"', '{"url":"x:@paypal_support"}'].join("\n");
    const r = await svc(["batch", "-", "--format", "jsonl", "--field", "url"], { input });
    expect(r.code).toBe(0);
    const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { entity: { id: string } });
    expect(out.map((v) => v.entity.id)).toEqual(["url:https://paypa1.com/login", "domain:google.com", "social_account:x:@paypal_support"]);
    expect(r.stderr).toMatch(/line 2: not valid JSON — skipped/);
    expect(r.stderr).toMatch(/line 3: no "url" field — skipped/);
  });

  it("bad files stop before any work with exit 2 and advice", async () => {
    mkdirSync(join(dir, "a-directory"), { recursive: true });
    const [missing, directory, column, out] = await Promise.all([
      svc(["batch", join(dir, "missing.txt")]),
      svc(["batch", join(dir, "a-directory")]),
      svc(["batch", join(dir, "leads.csv"), "--column", "phone_number"]),
      svc(["batch", join(dir, "domains.txt"), "--out", join(dir, "no", "such", "dir", "x.jsonl")]),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`error: File not found: ${join(dir, "missing.txt")}`);
    expect(missing.stderr).toContain("pass - to read from standard input");
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain("is a directory, not a file");
    expect(column.code).toBe(2);
    expect(column.stderr).toContain('No column named "phone_number". The header has: name, website, type.');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("its directory does not exist");
    expect(missing.stdout + directory.stdout + column.stdout + out.stdout).toBe("");
  });
});

describe("remote mode, server down", () => {
  it("exits 3 and says what to do, for a refused port and for port 1", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const key = "svc_live_" + "A".repeat(38);
    const [refused, one, noKey] = await Promise.all([
      svc(["check", "paypa1.com", "--url", `http://127.0.0.1:${port}`, "--key", key]),
      svc(["batch", "-"], { input: "paypa1.com\n", env: { SVC_URL: "http://127.0.0.1:1", SVC_API_KEY: key } }),
      svc(["check", "paypa1.com", "--url", "http://127.0.0.1:1"]),
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("error: Cannot reach the server");
    expect(refused.stderr).toContain("ECONNREFUSED");
    expect(refused.stderr).toContain("Start one with `svc serve`");
    expect(one.code).toBe(3);
    expect(one.stderr).toContain("Cannot reach the server");
    expect(one.stdout).toBe("");
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("No API key for http://127.0.0.1:1");
  });
});

describe("on a terminal", () => {
  it("colors the table, and batch shows a progress bar with rate and ETA; NO_COLOR turns colors off", async () => {
    writeFileSync(join(dir, "tty.txt"), Array.from({ length: 3000 }, (_, i) => `tty-${i}.example-store.com`).join("\n"));
    const [check, batch, plain] = await Promise.all([
      svcOnTty(["check", "paypa1.com"]),
      svcOnTty(["batch", join(dir, "tty.txt"), "--out", join(dir, "tty.jsonl")]),
      svcOnTty(["check", "paypa1.com"], { env: { NO_COLOR: "1" } }),
    ]);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(ANSI);
    expect(check.stdout).toContain("Looks like paypal.com");
    expect(batch.code).toBe(0);
    expect(batch.stdout).toContain("\r\u001b[K");
    expect(batch.stdout).toMatch(/% {2}[\d,]+ screened {2}[\d,]+\/s {2}ETA \d+:\d\d/);
    expect(batch.stdout).toMatch(/3,000 lines: 3,000 screened/);
    expect(readFileSync(join(dir, "tty.jsonl"), "utf8").trim().split("\n")).toHaveLength(3000);
    expect(plain.stdout).toContain("Looks like paypal.com");
    expect(plain.stdout).not.toMatch(ANSI);
  });
});
