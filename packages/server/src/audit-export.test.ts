import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { CheckFilters, NewAuditRecord } from "@svc/core";
import { anAuditRecord } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify as stringifySync } from "csv-stringify/sync";
import { CSV_OPTIONS, csvOfRows } from "./audit-export.js";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

/** Cell values that CSV quoting or formula-safety treat specially, and some that they must not touch. */
const TRICKY = [
  "=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tlead-tab", "\rlead-cr", "\r\nlead-crlf", "\uFF1Dfull", "\uFF0Bfull", "\uFF0Dfull", "\uFF20full",
  "a,b", 'say "hi"', '"', '""', "line\nbreak", "cr\rinside", "crlf\r\ninside", "ends-with-cr\r", "ends-with-lf\n", "comma,\"quote\"\nand=more",
  "пример.рф", "例え.テスト", "emoji-😀.com", "back\\slash", "\\.", "'already", " lead-space", "trail-space ", "x-y=z", "plain.example.com", ";", "a;b",
];

const concat = async (pieces: AsyncIterable<Uint8Array> | null): Promise<Buffer> => {
  if (!pieces) throw new Error("no COPY export on this engine");
  const all: Buffer[] = [];
  for await (const p of pieces) all.push(Buffer.from(p));
  return Buffer.concat(all);
};

it("quotes as csv-stringify did before, and also a cell whose only line break is a lone CR or LF", () => {
  for (const v of TRICKY) {
    const row = [Array.from({ length: 14 }, () => v)];
    const before = stringifySync(row, { header: true, columns: CSV_OPTIONS(true).columns, escape_formulas: true, record_delimiter: "\r\n" });
    const now = stringifySync(row, CSV_OPTIONS(true));
    const lone = /\r(?!\n)|(?<!\r)\n/.test(v);
    const quotedBefore = /[",]|\r\n/.test(v);
    expect(now === before, JSON.stringify(v)).toBe(!lone || quotedBefore);
    if (lone) expect(now.endsWith(`"\r\n`)).toBe(true); // the last cell is quoted
  }
});

describe.each(engines)("CSV audit export on %s", (engine) => {
  let api: TestApi;
  let account = "";
  let bulk = "";
  let bulkKey = "";
  const BULK_ROWS = 25_000;

  /** A record whose every exported text cell is `v` or derived from it. */
  const tricky = (accountId: string, v: string, i: number): NewAuditRecord => {
    const r = anAuditRecord({ account_id: accountId, value: v, created_at: new Date(Date.UTC(2026, 10, 2, 9, 0, 0, 500 * Math.floor(i / 2))).toISOString(), risk_level: i % 3 === 0 ? "high" : "low", type: i % 4 === 0 ? "url" : "domain", key_id: i % 5 === 0 ? null : v });
    const scoring = [{ ...r.verdict.signals[0]!, code: v, points: 10 }, { ...r.verdict.signals[0]!, code: "zero", points: 0 }, { ...r.verdict.signals[0]!, code: `${v}-2`, points: 5 }];
    return {
      ...r,
      ruleset: v,
      actor: { ...r.actor, channel: (i % 2 ? "api" : v) as "api" },
      // Every other record has no scoring signal: an empty cell.
      verdict: { ...r.verdict, confidence: (i % 2 ? "high" : v) as "high", recommended_action: (i % 2 ? "review" : v) as "review", signals: i % 2 ? [] : scoring },
    };
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    account = (await api.account()).accountId;
    ({ accountId: bulk, key: bulkKey } = await api.account());
    const checks = api.runtime.services.checks;
    await checks.saveMany(TRICKY.map((v, i) => tricky(account, v, i)));
    // Many rows for the bulk account, copied by SQL from the tricky ones: several COPY chunks,
    // with runs of equal created_at (ties broken by id) across the chunk boundaries.
    await checks.saveMany(TRICKY.map((v, i) => tricky(bulk, v, i)));
    await api.runtime.dataSource.query(
      `INSERT INTO checks (id, account_id, seq, created_at, entity_type, entity_value, entity_id, risk_score, risk_level, confidence, channel, actor_key_id,
                           request, entity, verdict, source_outcomes, ruleset, data_versions, signals, prev_hash, record_hash, hash_version, hash_key_id,
                           recommended_action, signal_codes)
       SELECT 'chk_bulk_' || lpad(g::text, 6, '0') || t.id, t.account_id, 1000 + g, timestamptz '2026-11-03T00:00:00Z' + (g / 7) * interval '1 ms',
              t.entity_type, t.entity_value || g, t.entity_id, g % 101, t.risk_level, t.confidence, t.channel, t.actor_key_id,
              t.request, t.entity, t.verdict, t.source_outcomes, t.ruleset, t.data_versions, t.signals, t.prev_hash, t.record_hash, t.hash_version, t.hash_key_id,
              t.recommended_action, t.signal_codes
         FROM generate_series(1, $2::int) g
         JOIN (SELECT row_number() OVER (ORDER BY seq) - 1 AS k, * FROM checks WHERE account_id = $1) t ON t.k = g % ${TRICKY.length}`,
      [bulk, BULK_ROWS - TRICKY.length],
    );
  }, 120_000);
  afterAll(async () => api?.close());

  const formatted = (accountId: string, filters: CheckFilters = {}) => concat(csvOfRows(api.runtime.services.checks.exportSummaries(accountId, { batchSize: 2_000, ...filters })));
  const copied = (accountId: string, filters: CheckFilters = {}) => concat(api.runtime.services.checks.exportCsv?.(accountId, filters) ?? null);

  if (engine === "pglite") {
    it("has no COPY export on PGlite: the API formats the rows", () => {
      expect(api.runtime.services.checks.exportCsv?.(account, {}) ?? null).toBeNull();
    });
  } else {
    it("makes by COPY exactly the bytes the API makes of the rows", async () => {
      const old = await formatted(account);
      const text = old.toString("utf8");
      // The comparison is worth something only if the old output has every case in it.
      expect(text).toContain(`'=1+1`);
      expect(text).toContain(`"'\r\nlead-crlf"`);
      expect(text).toContain(`"say ""hi"""`);
      expect(text).toContain(`'\uFF20full`);
      expect(text).toMatch(/,,/); // empty cells (no scoring signal, no key)
      expect(text.match(/^chk_/gm)).toHaveLength(TRICKY.length);
      const made = await copied(account);
      expect(made.toString("utf8")).toBe(text);
      expect(made.equals(old)).toBe(true);
    });

    it.each<[string, CheckFilters]>([
      ["a risk level", { risk_level: "high" }],
      ["a type", { type: "url" }],
      ["a time range", { since: new Date("2026-11-02T09:00:03Z"), until: new Date("2026-11-02T09:00:07Z") }],
      ["all filters, matching nothing", { type: "url", risk_level: "critical", since: new Date("2026-11-02T09:00:03Z") }],
    ])("keeps the same bytes with %s", async (_name, filters) => {
      const old = await formatted(account, filters);
      expect((await copied(account, filters)).equals(old)).toBe(true);
    });

    it("keeps the same bytes over several chunks, with equal timestamps across their boundaries", async () => {
      const old = await formatted(bulk);
      const made = await copied(bulk);
      expect(made.length).toBe(old.length);
      expect(made.equals(old)).toBe(true);
      const ids = made.toString("utf8").match(/^chk_[^,]+/gm) ?? [];
      expect(ids).toHaveLength(BULK_ROWS);
      expect(new Set(ids).size).toBe(BULK_ROWS);
    });

    it("gives one account's rows only, and the header alone to an account without any", async () => {
      const mine = (await copied(account)).toString("utf8");
      expect(mine).not.toContain("chk_bulk_");
      const empty = (await api.account()).accountId;
      const none = await copied(empty);
      expect(none.equals(await formatted(empty))).toBe(true);
      expect(none.toString("utf8")).toBe("id,created_at,entity_type,entity_value,risk_score,risk_level,confidence,recommended_action,signals,ruleset,channel,key_id,prev_hash,record_hash\r\n");
    });

    it("stops reading when the reader goes away and gives its connections back", { timeout: 60_000 }, async () => {
      const pool = (api.runtime.dataSource.driver as unknown as { master: { totalCount: number; idleCount: number } }).master;
      const server = serve({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" }) as http.Server;
      try {
        await once(server, "listening");
        const { port } = server.address() as AddressInfo;
        const first = await new Promise<number>((resolve, reject) => {
          const req = http.get({ host: "127.0.0.1", port, path: "/v1/audit/export", headers: { "x-api-key": bulkKey }, agent: false }, (res) => {
            res.once("data", (c: Buffer) => {
              req.destroy();
              resolve(c.length);
            });
          });
          req.on("error", (e) => (req.destroyed ? undefined : reject(e)));
        });
        expect(first).toBeGreaterThan(0);
        // Every connection back in the pool, no COPY left running.
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline && (pool.idleCount !== pool.totalCount || (await running(api)) > 0)) await new Promise((r) => setTimeout(r, 50));
        expect(pool.idleCount).toBe(pool.totalCount);
        expect(await running(api)).toBe(0);
        // And the next export reads everything.
        const all = await new Promise<string>((resolve, reject) => {
          http.get({ host: "127.0.0.1", port, path: "/v1/audit/export", headers: { "x-api-key": bulkKey }, agent: false }, (res) => {
            const parts: Buffer[] = [];
            res.on("data", (c: Buffer) => parts.push(c));
            res.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
            res.on("error", reject);
          }).on("error", reject);
        });
        expect(all.match(/^chk_/gm)).toHaveLength(BULK_ROWS);
      } finally {
        server.close();
      }
    });
  }

  it("answers the HTTP export with the same CSV", async () => {
    const me = await api.account();
    await api.runtime.services.checks.saveMany(TRICKY.slice(0, 8).map((v, i) => tricky(me.accountId, v, i)));
    const res = await api.app.request("/v1/audit/export", { headers: { "x-api-key": me.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(Buffer.from(await res.arrayBuffer()).equals(await formatted(me.accountId))).toBe(true);
  });
});

/** The export's statements of this database still running. */
async function running(api: TestApi): Promise<number> {
  const [{ n }] = (await api.runtime.dataSource.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%FROM check_exports%'`,
  )) as [{ n: number }];
  return n;
}
