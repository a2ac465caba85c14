// The commands that need a database, and remote mode against the real API: `svc serve` on a
// fresh PGlite directory, then check/batch/history/report/graph/export over HTTP with the key
// `svc keys create` printed, a wrong key, and the lock that keeps a second process off the
// database. Opening PGlite costs seconds, so the steps share one directory and run in order.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, svc } from "./spawn.js";

let dir: string;
let data: string;
let key = "";
let customerKey = "";
let url = "";
let server: ChildProcess | null = null;
let serverErr = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-server-"));
  data = join(dir, "data");
});
afterAll(() => {
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

// PGlite start-up is CPU-heavy (~13 s for a fresh directory on 2 idle cores); on a busy CI
// machine it can take several times that, hence the generous per-test timeout.
describe.sequential("with a database", { timeout: 240_000 }, () => {
  it("keys create makes the database and prints a key once; intel import reports added/updated/skipped", async () => {
    const created = await svc(["keys", "create", "--plan", "pro", "--json", "--data-dir", data]);
    expect(created.code, created.stderr).toBe(0);
    const k = JSON.parse(created.stdout) as { id: string; key: string; account_id: string; plan: string };
    expect(k.key).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    expect(k).toMatchObject({ account_id: "acc_admin", plan: "pro" });
    key = k.key;
    const customer = await svc(["keys", "create", "--plan", "pro", "--new-account", "Acme Ltd", "--json", "--data-dir", data]);
    expect(customer.code, customer.stderr).toBe(0);
    customerKey = (JSON.parse(customer.stdout) as { key: string }).key;

    writeFileSync(join(dir, "blocklist.txt"), "# our SOC's list\nevil-login-paypal.com\nEVIL-LOGIN-PAYPAL.COM\nnot a domain\nnorthgate-plumbing.com\n");
    const imported = await svc(["intel", "import", join(dir, "blocklist.txt"), "--format", "plain", "--source", "test-soc", "--label", "phishing", "--data-dir", data]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^Imported 2 entries from .*blocklist\.txt \(source test-soc; PGlite at .*\): 2 added, 0 updated, 2 skipped\.$/m);
    expect(imported.stderr).toMatch(/^line 3: .*line 2/m);
    expect(imported.stderr).toMatch(/^line 4: .*whitespace/m);
  });

  it("migrate on a new directory names the migrations it applied; run again, it applies none", async () => {
    const fresh = join(dir, "fresh");
    const first = await svc(["migrate", "--data-dir", fresh]);
    expect(first.code, first.stderr).toBe(0);
    const m = /^Database ready: PGlite at .*\nApplied now: (.+)\.\nSchema: (\d+) migration\(s\), the latest (\w+)\.\n$/.exec(first.stdout);
    expect(m, first.stdout).not.toBeNull();
    const names = (m?.[1] ?? "").split(", ");
    expect(names[0]).toMatch(/^InitialSchema\d+$/);
    expect(names).toHaveLength(Number(m?.[2]));
    expect(names.at(-1)).toBe(m?.[3]);
    const second = await svc(["migrate", "--data-dir", fresh]);
    expect(second.stdout).toContain("Already up to date: nothing to apply.");
  });

  it("serve listens and a second process on the same database is told to use --url", async () => {
    server = spawn(process.execPath, [BIN, "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", data], { env: cleanEnv({ LOG_LEVEL: "warn" }), stdio: ["ignore", "ignore", "pipe"] });
    server.stderr?.setEncoding("utf8").on("data", (d: string) => (serverErr += d));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${serverErr}`)), 180_000);
      server?.stderr?.on("data", () => {
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(serverErr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
      server?.once("exit", (c) => reject(new Error(`serve exited ${c}: ${serverErr}`)));
    });
    const locked = await svc(["history", "--data-dir", data]);
    expect(locked.code).toBe(3);
    expect(locked.stderr).toBe(`error: the data directory ${data} is in use by another svc process (pid ${server?.pid}) serving ${url}; use --url ${url} --key <key> (or SVC_URL/SVC_API_KEY)\n`);
  });

  it("serve runs async jobs: POST /v1/screen/async is screened in-process and polled to succeeded", async () => {
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const accepted = await fetch(`${url}/v1/screen/async`, { method: "POST", headers, body: JSON.stringify({ entity_value: "paypa1.com", metadata: { order: 7 } }) });
    expect(accepted.status).toBe(202);
    const { job_id } = (await accepted.json()) as { job_id: string };
    let job: { status: string; result: { risk_level: string } | null; metadata: unknown } = { status: "queued", result: null, metadata: null };
    const deadline = Date.now() + 60_000;
    while (job.status !== "succeeded" && job.status !== "failed" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      job = (await (await fetch(`${url}/v1/jobs/${job_id}`, { headers })).json()) as typeof job;
    }
    expect(job.status).toBe("succeeded");
    expect(job.result?.risk_level).toBe("high");
    expect(job.metadata).toEqual({ order: 7 });
  });

  it("remote check and batch use the server's intel; a wrong key exits 3 with advice", async () => {
    const wrongKey = `svc_live_${"A".repeat(32)}`;
    writeFileSync(join(dir, "batch.txt"), [...Array.from({ length: 240 }, (_, i) => `shop-${i}.example-store.com`), "evil-login-paypal.com", "not a domain", "paypa1.com"].join("\n"));
    const [check, wrong, malformed, batch] = await Promise.all([
      svc(["check", "evil-login-paypal.com", "paypa1.com", "--json", "--fail-on", "critical"], { env: { SVC_URL: url, SVC_API_KEY: key } }),
      svc(["check", "paypa1.com", "--url", url, "--key", (await import("@svc/server-ports")).formatApiKey(new Uint8Array(32).fill(7))]),
      svc(["check", "paypa1.com", "--url", url, "--key", wrongKey]),
      svc(["batch", join(dir, "batch.txt"), "--url", url, "--key", key, "--output-format", "csv", "--concurrency", "2"]),
    ]);
    expect(check.code, check.stderr).toBe(1);
    const [evil, lookalike] = JSON.parse(check.stdout) as { risk_level: string; signals: { code: string; message: string }[] }[];
    expect(evil?.risk_level).toBe("critical");
    expect(evil?.signals.map((s) => s.code)).toContain("intel.blocklisted");
    expect(lookalike?.signals[0]?.code).toBe("domain.lookalike_brand");
    for (const r of [wrong, malformed]) {
      expect(r.code).toBe(3);
      expect(r.stderr).toContain("error: The server refused the API key");
      expect(r.stderr).toContain("Check --key / SVC_API_KEY");
      expect(r.stdout).toBe("");
    }
    expect(batch.code, batch.stderr).toBe(0);
    const rows = batch.stdout.trim().split("\r\n");
    expect(rows).toHaveLength(1 + 242);
    expect(rows.find((r) => r.startsWith("241,"))).toMatch(/^241,evil-login-paypal\.com,domain,evil-login-paypal\.com,\d+,critical,block,/);
    expect(batch.stderr).toMatch(/^line 242: "not a domain": .*entity\.unrecognized.* — skipped$/m);
    expect(batch.stderr).toContain(`243 lines: 242 screened, 1 skipped`);
    expect(batch.stderr).toContain(url);
  });

  it("history, report, graph and export over HTTP", async () => {
    const env = { SVC_URL: url, SVC_API_KEY: key };
    const [history, report] = await Promise.all([
      svc(["history", "--risk-level", "critical", "--json", "--limit", "5"], { env }),
      svc(["report", "evil-login-paypal.com", "--category", "phishing", "--related", "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "--description", "fake login page"], { env }),
    ]);
    expect(history.code, history.stderr).toBe(0);
    const h = JSON.parse(history.stdout) as { items: { entity: { value: string }; risk_level: string; channel: string }[]; next_cursor: string | null };
    expect(h.items.length).toBeGreaterThanOrEqual(2);
    expect(h.items.every((i) => i.risk_level === "critical")).toBe(true);
    expect(h.items.map((i) => i.entity.value)).toContain("evil-login-paypal.com");
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^Report rep_\w+ received for domain:evil-login-paypal\.com \(moderation: unverified; http/);
    expect(report.stdout).toContain("It counts in verdicts once the operator confirms it");
    const reportId = /Report (rep_\w+)/.exec(report.stdout)?.[1] as string;

    // The key `svc keys create` made is the operator's: it sees the queue and confirms.
    const queue = await svc(["reports", "list"], { env });
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.stdout).toMatch(/^ID\s+FILED \(UTC\)\s+ENTITY\s+CATEGORY\s+STATUS\s+RELATED/);
    expect(queue.stdout).toMatch(new RegExp(`${reportId}\\s+\\S+ \\S+\\s+domain:evil-login-paypal\\.com\\s+phishing\\s+unverified\\s+wallet:0xde0b`));
    const [confirmed, unknown, noReason, customer] = await Promise.all([
      svc(["reports", "confirm", reportId], { env }),
      svc(["reports", "confirm", "rep_nope"], { env }),
      svc(["reports", "reject", reportId], { env }),
      svc(["reports", "list", "--url", url, "--key", customerKey]),
    ]);
    expect(customer.code).toBe(3);
    expect(customer.stderr).toContain("error: Only the operator may moderate reports, and this API key is a customer's.");
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toBe(`Confirmed ${reportId} about domain:evil-login-paypal.com: it counts in verdicts from now on, and its 1 related entity is linked in the graph.\n`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: No report rep_nope.");
    expect(unknown.stderr).toContain("svc reports list --status all");
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("--reason");

    const [graph, exported] = await Promise.all([
      svc(["graph", "evil-login-paypal.com", "--depth", "2"], { env }),
      svc(["export", "--since", "1h", "--out", join(dir, "audit.csv")], { env }),
    ]);
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toMatch(/^domain:evil-login-paypal\.com \d+ critical\n└─ reported_with → wallet:0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae not screened \[reports\]\n$/);
    expect(exported.code, exported.stderr).toBe(0);
    const csv = readFileSync(join(dir, "audit.csv"), "utf8").trim().split("\r\n");
    expect(csv[0]).toMatch(/^id,created_at,entity_type,entity_value,risk_score,risk_level,/);
    expect(csv.length).toBeGreaterThanOrEqual(1 + 244);
    expect(exported.stderr).toMatch(/^Wrote [\d,]+ record\(s\) to .*audit\.csv/);
  });

  it("serve stops cleanly on SIGINT; then migrate and check --db work on the same database", async () => {
    const exited = new Promise<number | null>((resolve) => server?.once("exit", (c) => resolve(c)));
    server?.kill("SIGINT");
    expect(await exited).toBe(0);
    server = null;
    expect(serverErr).toContain("svc: shutting down");
    expect(existsSync(join(data, "pgdata", "svc.lock"))).toBe(false);

    const [migrate, without] = await Promise.all([svc(["migrate", "--data-dir", data]), svc(["check", "northgate-plumbing.com", "--json"])]);
    expect(migrate.code, migrate.stderr).toBe(0);
    // Served from before: nothing left to apply, and it says so (not the whole list as if applied now).
    expect(migrate.stdout).toMatch(/^Database ready: PGlite at .*\nAlready up to date: nothing to apply\.\nSchema: \d+ migration\(s\), the latest \w+\.\n$/);

    const db = await svc(["check", "northgate-plumbing.com", "--db", "--data-dir", data, "--json"]);
    expect(db.code, db.stderr).toBe(0);
    expect(JSON.parse(db.stdout)).toMatchObject({ risk_level: "critical", entity: { id: "domain:northgate-plumbing.com" } });
    expect(JSON.parse(without.stdout).risk_level).not.toBe("critical");

    // On this machine's database the CLI is the operator: reject the report confirmed over HTTP.
    const listed = JSON.parse((await svc(["reports", "list", "--status", "confirmed", "--json", "--data-dir", data])).stdout) as { items: { id: string; moderation_status: string }[] };
    const id = listed.items[0]?.id as string;
    expect(listed.items).toEqual([expect.objectContaining({ moderation_status: "confirmed" })]);
    const rejected = await svc(["reports", "reject", id, "--reason", "the wallet is the victim's", "--data-dir", data]);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toBe(`Rejected ${id} about domain:evil-login-paypal.com (the wallet is the victim's): it does not count in verdicts.\n`);
    const after = await svc(["reports", "list", "--status", "rejected", "--data-dir", data]);
    expect(after.stdout).toMatch(new RegExp(`${id}.*rejected\\s+wallet:0xde0b\\S+\\s+the wallet is the victim's`));
    const none = await svc(["reports", "list", "--data-dir", data]);
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/^No unverified reports \(PGlite at /);
  });
});
