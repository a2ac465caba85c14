import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import type { DataSource } from "typeorm";
// Test-only module (imported by *.test.ts, not exported by the package): the port contract suites live in @svc/testing.
import {
  anAuditRecord, uniqueId, accountRepositoryContract, apiKeyRepositoryContract, checkRepositoryContract, graphRepositoryContract,
  idempotencyStoreContract, intelStoreContract, reportRepositoryContract, usageCounterContract, type CheckTamper, type GraphFixture,
} from "@svc/testing";
import { auditColumnsOf, canonicalJson, signalCodesOf, splitEntityId, type AuditRecord, type Verdict } from "@svc/core";
import { HmacAuditKeyring } from "./audit-keys.js";
import { TypeOrmAccountRepository } from "./repositories/typeorm-account-repository.js";
import { TypeOrmApiKeyRepository } from "./repositories/typeorm-api-key-repository.js";
import { TypeOrmCheckRepository } from "./repositories/typeorm-check-repository.js";
import { TypeOrmGraphRepository } from "./repositories/typeorm-graph-repository.js";
import { TypeOrmIdempotencyStore } from "./repositories/typeorm-idempotency-store.js";
import { TypeOrmIntelStore } from "./repositories/typeorm-intel-store.js";
import { TypeOrmReportRepository } from "./repositories/typeorm-report-repository.js";
import { TypeOrmUsageCounter } from "./repositories/typeorm-usage-counter.js";
import { batchedReadsContract } from "./batched-reads-contract.js";
import { rateLimiterContract } from "./rate-limiter-contract.js";

export { anAuditRecord, uniqueId };

/**
 * Declares every port contract suite against the TypeORM adapters on one shared DataSource
 * (`ds()` is read when a test starts, after the caller's `beforeAll` opened it). The suites
 * isolate tests by unique ids, so no truncation is needed between them.
 */
export function typeOrmContracts(engine: string, ds: () => DataSource): void {
  const close = async (): Promise<void> => {};
  const auditKeys = new HmacAuditKeyring("contract-suite audit key, 32+ characters long");
  checkRepositoryContract(engine, async () => ({ repo: new TypeOrmCheckRepository(ds(), auditKeys), tamper: sqlTamper(ds()), close }));
  accountRepositoryContract(engine, async () => ({ repo: new TypeOrmAccountRepository(ds()), close }));
  apiKeyRepositoryContract(engine, async () => ({ repo: new TypeOrmApiKeyRepository(ds()), accounts: new TypeOrmAccountRepository(ds()), close }));
  idempotencyStoreContract(engine, async () => ({ store: new TypeOrmIdempotencyStore(ds()), close }));
  usageCounterContract(engine, async () => ({ counter: new TypeOrmUsageCounter(ds()), close }));
  reportRepositoryContract(engine, async () => ({ repo: new TypeOrmReportRepository(ds()), close }));
  graphRepositoryContract(engine, async () => sqlGraphFixture(ds()));
  intelStoreContract(engine, async () => ({ store: new TypeOrmIntelStore(ds()), close }));
  batchedReadsContract(engine, ds);
  rateLimiterContract(engine, ds);
  exportColumns(engine, ds, auditKeys);
  chainWriters(engine, ds, auditKeys);
  graphLearning(engine, ds);
}

/** The action and signal codes the export reads are columns written at insert, and verification compares them with the sealed verdict. */
function exportColumns(engine: string, ds: () => DataSource, keys: HmacAuditKeyring): void {
  describe(`checks export columns: ${engine}`, () => {
    const scored = (account: string, minute: number): ReturnType<typeof anAuditRecord> => {
      const base = anAuditRecord({ account_id: account, created_at: new Date(Date.UTC(2026, 10, 2, 9, minute)).toISOString() });
      const signal = base.verdict.signals[0]!;
      return { ...base, verdict: { ...base.verdict, recommended_action: "block", signals: [{ ...signal, code: "domain.lookalike_brand", points: 75 }, { ...signal, code: "x.zero", points: 0 }, { ...signal, code: "domain.suspicious_tld", points: 10 }] } };
    };

    it("writes recommended_action and signal_codes at insert, by save and by saveMany", async () => {
      const repo = new TypeOrmCheckRepository(ds(), keys);
      const account = uniqueId("acc");
      const one = await repo.save(scored(account, 1));
      const many = await repo.saveMany([scored(account, 2), scored(account, 3)]);
      const rows = (await ds().query(`SELECT id, recommended_action, signal_codes FROM checks WHERE account_id = $1 ORDER BY seq`, [account])) as { id: string; recommended_action: string; signal_codes: string }[];
      expect(rows).toEqual([one, ...many].map((r) => ({ id: r.id, recommended_action: "block", signal_codes: "domain.lookalike_brand;domain.suspicious_tld" })));
    });

    it("stores a record's signals once when they are its verdict's, and in full when they differ; both read back as sealed", async () => {
      const repo = new TypeOrmCheckRepository(ds(), keys);
      const account = uniqueId("acc");
      const same = scored(account, 1);
      const sameRecord = { ...same, signals: same.verdict.signals };
      const copied = scored(account, 2);
      const copiedRecord = { ...copied, signals: copied.verdict.signals.map((x) => ({ ...x })) };
      const differs = scored(account, 3);
      // An allowlisted verdict lists fewer reasons than the record's signals.
      const differsRecord = { ...differs, verdict: { ...differs.verdict, signals: differs.verdict.signals.slice(0, 1) }, signals: differs.verdict.signals };
      const saved = await repo.saveMany([sameRecord, copiedRecord, differsRecord]);
      const stored = (await ds().query(`SELECT id, signals::text AS signals FROM checks WHERE account_id = $1 ORDER BY seq`, [account])) as { id: string; signals: string }[];
      expect(stored.map((r) => r.signals)).toEqual(['"verdict.signals"', '"verdict.signals"', canonicalJson(differsRecord.signals)]);
      for (const [i, r] of saved.entries()) {
        const back = await repo.get(account, r.id);
        expect(back?.signals).toEqual([sameRecord, copiedRecord, differsRecord][i]?.signals);
        expect(back?.verdict.signals).toEqual([sameRecord, copiedRecord, differsRecord][i]?.verdict.signals);
      }
      expect(await repo.verifyChain(account)).toMatchObject({ ok: true, checked: 3 });
      // The verdict's signals are also the record's: editing them is caught once, at that record.
      await ds().query(`UPDATE checks SET verdict = jsonb_set(verdict::jsonb, '{signals,0,points}', '1'::jsonb) WHERE account_id = $1 AND id = $2`, [account, saved[0]?.id]);
      expect(await repo.verifyChain(account)).toMatchObject({ ok: false, first_bad: { id: saved[0]?.id, reason: "hash_mismatch" } });
    });

    it("keeps an export row for each record, by any INSERT, and drops it with the record", async () => {
      const repo = new TypeOrmCheckRepository(ds(), keys);
      const account = uniqueId("acc");
      const saved = [await repo.save(scored(account, 1)), ...(await repo.saveMany([scored(account, 2), scored(account, 3)]))];
      const exportRows = async () => (await ds().query(
        `SELECT id, created_at, entity_type, risk_level, line FROM check_exports WHERE account_id = $1 ORDER BY created_at, id`,
        [account],
      )) as { id: string; created_at: Date; entity_type: string; risk_level: string; line: string }[];
      expect(await exportRows()).toEqual(saved.map((r) => ({
        id: r.id, created_at: new Date(r.created_at), entity_type: r.entity.type, risk_level: r.verdict.risk_level,
        line: [r.id, r.created_at, r.entity.type, r.entity.value, r.verdict.risk_score, r.verdict.risk_level, r.verdict.confidence, "block",
          "domain.lookalike_brand;domain.suspicious_tld", r.ruleset, r.actor.channel, r.actor.key_id ?? "", r.prev_hash ?? "", r.record_hash].join(","),
      })));
      await ds().query(`DELETE FROM checks WHERE account_id = $1 AND id = $2`, [account, saved[1]?.id]);
      expect((await exportRows()).map((r) => r.id)).toEqual([saved[0]?.id, saved[2]?.id]);
      await ds().query(`DELETE FROM checks WHERE account_id = $1`, [account]);
      expect(await exportRows()).toEqual([]);
    });

    const exportEdits = [
      ["an export row edited", (account: string, id: string) => ds().query(`UPDATE check_exports SET line = replace(line, ',block,', ',allow,') WHERE account_id = $1 AND id = $2`, [account, id]), "differs from the record in line"],
      ["an export row removed", (account: string, id: string) => ds().query(`DELETE FROM check_exports WHERE account_id = $1 AND id = $2`, [account, id]), "has no export row"],
    ] as const;
    for (const [what, edit, detail] of exportEdits) {
      it(`verification catches ${what}, naming that record`, async () => {
        const repo = new TypeOrmCheckRepository(ds(), keys);
        const account = uniqueId("acc");
        const [, b] = await repo.saveMany([scored(account, 1), scored(account, 2), scored(account, 3)]);
        expect(await repo.verifyChain(account)).toEqual({ ok: true, checked: 3, legacy: 0 });
        await edit(account, b?.id as string);
        expect(await repo.verifyChain(account)).toMatchObject({ ok: false, checked: 2, first_bad: { id: b?.id, reason: "hash_mismatch", detail: expect.stringContaining(detail) } });
      });
    }

    it("verification catches an export row of no record, within the stretch verified", async () => {
      const repo = new TypeOrmCheckRepository(ds(), keys);
      const account = uniqueId("acc");
      const [a] = await repo.saveMany([scored(account, 1), scored(account, 2), scored(account, 3)]);
      await ds().query(
        `INSERT INTO check_exports SELECT account_id, created_at + interval '30 seconds', 'chk_forged', entity_type, risk_level, replace(line, id, 'chk_forged')
           FROM check_exports WHERE account_id = $1 AND id = $2`,
        [account, a?.id],
      );
      expect(await repo.verifyChain(account)).toMatchObject({ ok: false, checked: 3, first_bad: { id: "chk_forged", reason: "chain_broken" } });
      expect(await repo.verifyChain(account, { since: new Date(Date.UTC(2026, 10, 2, 9, 1, 30)) })).toMatchObject({ ok: false, first_bad: { id: "chk_forged" } });
      expect(await repo.verifyChain(account, { since: new Date(Date.UTC(2026, 10, 2, 9, 2)) })).toEqual({ ok: true, checked: 2, legacy: 0 });
    });

    for (const [column, value] of [["recommended_action", "allow"], ["signal_codes", ""]] as const) {
      it(`verification catches ${column} edited alone, naming that record`, async () => {
        const repo = new TypeOrmCheckRepository(ds(), keys);
        const account = uniqueId("acc");
        const [, b] = await repo.saveMany([scored(account, 1), scored(account, 2), scored(account, 3)]);
        expect((await repo.verifyChain(account)).ok).toBe(true);
        await ds().query(`UPDATE checks SET ${column} = $3 WHERE account_id = $1 AND id = $2`, [account, b?.id, value]);
        expect(await repo.verifyChain(account)).toMatchObject({ ok: false, checked: 2, first_bad: { id: b?.id, reason: "hash_mismatch" } });
      });
    }
  });
}

/**
 * A repository appends after the place it last left an account's chain in one statement; when
 * another writer (another process: here another repository) moved the head meanwhile, that
 * statement writes nothing and the group takes its place under the head's lock instead.
 */
function chainWriters(engine: string, ds: () => DataSource, keys: HmacAuditKeyring): void {
  describe(`checks written by several writers: ${engine}`, () => {
    const record = (account: string, i: number) => anAuditRecord({ account_id: account, id: uniqueId("chk"), created_at: new Date(Date.UTC(2026, 10, 2, 9, 0, i)).toISOString() });
    const rows = async (account: string) =>
      (await ds().query(`SELECT id, seq, prev_hash, record_hash FROM checks WHERE account_id = $1 ORDER BY seq`, [account])) as { id: string; seq: number; prev_hash: string | null; record_hash: string }[];

    it("forms one chain when two writers take turns and race, each unaware of the other's writes", async () => {
      const a = new TypeOrmCheckRepository(ds(), keys);
      const b = new TypeOrmCheckRepository(ds(), keys);
      const account = uniqueId("acc");
      let i = 0;
      const saved: string[] = [];
      const keep = (rs: readonly { id: string }[]) => saved.push(...rs.map((r) => r.id));
      keep(await a.saveMany([record(account, i++), record(account, i++)]));
      keep(await a.saveMany([record(account, i++)])); // a's own place: one statement
      keep(await b.saveMany([record(account, i++), record(account, i++), record(account, i++)]));
      keep(await a.saveMany([record(account, i++)])); // a's place is stale: b moved the head
      for (let round = 0; round < 5; round++) {
        const [x, y] = await Promise.all([a.saveMany([record(account, i++), record(account, i++)]), b.saveMany([record(account, i++)])]);
        keep(x);
        keep(y);
      }
      const stored = await rows(account);
      expect(stored.map((r) => r.seq)).toEqual(stored.map((_, k) => k + 1));
      expect(new Set(stored.map((r) => r.id))).toEqual(new Set(saved));
      stored.forEach((r, k) => expect(r.prev_hash).toBe(k === 0 ? null : stored[k - 1]?.record_hash));
      expect(await a.verifyChain(account)).toMatchObject({ ok: true, checked: saved.length });
    });

    it.skipIf(engine !== "PostgreSQL")("a writer whose place is stale tries again from where its statement saw the head, without taking the head's lock", async () => {
      const a = new TypeOrmCheckRepository(ds(), keys);
      const b = new TypeOrmCheckRepository(ds(), keys);
      const account = uniqueId("acc");
      await a.saveMany([record(account, 0)]);
      await b.saveMany([record(account, 1), record(account, 2)]); // a does not know of these
      const texts: string[] = [];
      const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
      const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        const q = args[0] as string | { text?: string };
        texts.push(typeof q === "string" ? q : (q.text ?? ""));
        return query.apply(this, args) as never;
      });
      try {
        await a.saveMany([record(account, 3)]);
      } finally {
        spy.mockRestore();
      }
      const appends = texts.filter((t) => t.includes("WITH head AS"));
      expect(appends).toHaveLength(2); // the stale place, then the place the first statement saw
      expect(texts.filter((t) => t.includes("INSERT INTO check_chain_heads") || /^\s*BEGIN/i.test(t))).toEqual([]);
      expect((await rows(account)).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
      expect(await a.verifyChain(account)).toMatchObject({ ok: true, checked: 4 });
    });

    it("writes nothing of a group whose statement fails, and the next group still lands in place", async () => {
      const repo = new TypeOrmCheckRepository(ds(), keys);
      const account = uniqueId("acc");
      const first = record(account, 0);
      await repo.saveMany([first]);
      // The same id again: the primary key refuses the group, rows and head alike.
      await expect(repo.saveMany([record(account, 1), { ...record(account, 2), id: first.id }])).rejects.toThrow();
      await repo.saveMany([record(account, 3)]);
      expect((await rows(account)).map((r) => r.seq)).toEqual([1, 2]);
      expect(await repo.verifyChain(account)).toMatchObject({ ok: true, checked: 2 });
    });
  });
}

/** What a group of checks teaches the graph (`learn`, one transaction) is what the two upserts write one after the other. */
function graphLearning(engine: string, ds: () => DataSource): void {
  describe(`graph learning in one transaction: ${engine}`, () => {
    const state = async (account: string) => ({
      risks: await ds().query(`SELECT node_id, risk_score, risk_level FROM graph_node_risks WHERE account_id = $1 ORDER BY node_id`, [account]),
      edges: await ds().query(`SELECT from_id, to_id, relation, weight, source, first_seen, last_seen FROM graph_edges WHERE scope = $1 ORDER BY from_id, relation, to_id`, [account]),
    });
    const lesson = (account: string, tag: string) => {
      const d = (name: string) => `domain:${name}.${tag}.example`;
      const at = (s: number) => new Date(Date.UTC(2026, 10, 2, 9, 0, s));
      const nodes = [
        { id: d("mail"), type: "domain" as const, value: d("mail").slice(7), risk_score: 80, risk_level: "high" as const, account_id: account },
        { id: d("www"), type: "domain" as const, value: d("www").slice(7), risk_score: 5, risk_level: "low" as const, account_id: account },
        { id: d("mail"), type: "domain" as const, value: d("mail").slice(7), risk_score: 85, account_id: account },
      ];
      const edge = (from: string, to: string, s: number, weight = 1) => ({ from: d(from), to: d(to), relation: "subdomain_of", weight, source: "checks", seen_at: at(s), account_id: account });
      // Endpoints that are no node yet (the registered domain), an edge seen twice out of order.
      return { nodes, edges: [edge("mail", "root", 5), edge("www", "root", 3), edge("mail", "root", 1, 2)], d };
    };

    it("writes the same nodes, risks and edges as upsertNodes then upsertEdges", async () => {
      const repo = new TypeOrmGraphRepository(ds());
      const [one, two] = [uniqueId("acc"), uniqueId("acc")];
      const a = lesson(one, one);
      await repo.learn(a.nodes, a.edges);
      const b = lesson(two, one);
      await repo.upsertNodes(b.nodes);
      await repo.upsertEdges(b.edges);
      const [learned, upserted] = [await state(one), await state(two)];
      expect(learned.risks).toHaveLength(2);
      expect(learned.edges).toHaveLength(2);
      expect(learned).toEqual(upserted);
      const root = (await ds().query(`SELECT id FROM graph_nodes WHERE id = $1`, [a.d("root")])) as unknown[];
      expect(root).toHaveLength(1);
    });

    it("inserts an account's new risks as given and updates those it has: a field left out stays, null clears", async () => {
      const repo = new TypeOrmGraphRepository(ds());
      const account = uniqueId("acc");
      const d = (name: string) => `domain:${name}.${account}.example`;
      const node = (name: string, risk: { risk_score?: number | null; risk_level?: "low" | "high" | null }) => ({ id: d(name), type: "domain" as const, value: d(name).slice(7), account_id: account, ...risk });
      const risks = async () => (await state(account)).risks as { node_id: string; risk_score: number | null; risk_level: string | null }[];
      await repo.learn([node("a", { risk_level: "high" }), node("b", { risk_score: 7, risk_level: "low" })], []);
      expect(await risks()).toEqual([{ node_id: d("a"), risk_score: null, risk_level: "high" }, { node_id: d("b"), risk_score: 7, risk_level: "low" }]);
      // Existing and new nodes in one group: a, b updated (b's level left out), c inserted.
      await repo.learn([node("a", { risk_score: 40 }), node("b", { risk_score: 9 }), node("c", { risk_score: 1 })], []);
      expect(await risks()).toEqual([
        { node_id: d("a"), risk_score: 40, risk_level: "high" },
        { node_id: d("b"), risk_score: 9, risk_level: "low" },
        { node_id: d("c"), risk_score: 1, risk_level: null },
      ]);
      // The same risk again changes nothing; null clears; a node given no risk at all keeps its own.
      await repo.learn([node("a", { risk_score: 40, risk_level: "high" }), node("b", { risk_score: null, risk_level: null }), node("c", {})], []);
      expect(await risks()).toEqual([
        { node_id: d("a"), risk_score: 40, risk_level: "high" },
        { node_id: d("b"), risk_score: null, risk_level: null },
        { node_id: d("c"), risk_score: 1, risk_level: null },
      ]);
    });

    it("learns concurrent groups that share nodes without a deadlock", async () => {
      const repo = new TypeOrmGraphRepository(ds());
      const account = uniqueId("acc");
      const groups = Array.from({ length: 8 }, (_, i) => lesson(account, `g${i % 3}`));
      await Promise.all(groups.map((g) => repo.learn(g.nodes, g.edges)));
      expect((await state(account)).edges).toHaveLength(6);
    });
  });
}

/** The SQL graph, with its shared evidence recorded where it lives: intel_records, reports. */
export function sqlGraphFixture(ds: DataSource): GraphFixture {
  const reports = new TypeOrmReportRepository(ds);
  return {
    repo: new TypeOrmGraphRepository(ds),
    close: async () => {},
    async list(entityId, list, source, at) {
      const parts = splitEntityId(entityId);
      if (!parts) throw new RangeError(entityId);
      await ds.query(
        `INSERT INTO intel_records (type, value, list, source, label, added_at, updated_at) VALUES ($1, $2, $3, $4, 'test', $5, $5)`,
        [parts.type, parts.value, list, source, at.toISOString()],
      );
    },
    async confirmedReport(entityId, trust, at) {
      const parts = splitEntityId(entityId);
      if (!parts) throw new RangeError(entityId);
      const reporter = uniqueId("reporter");
      await reports.setReporterTrust(reporter, trust);
      const { report } = await reports.file({ reporter_id: reporter, entity: { ...parts, id: entityId }, category: "phishing" }, at);
      await reports.moderate(report.id, { status: "confirmed", by: "acc_admin", reason: null, at });
    },
  };
}

/** What someone with write access to the table could do. */
function sqlTamper(ds: DataSource): CheckTamper {
  return {
    async setVerdict(accountId: string, checkId: string, change: (v: Verdict) => Verdict): Promise<void> {
      const [row] = (await ds.query(`SELECT verdict FROM checks WHERE account_id = $1 AND id = $2`, [accountId, checkId])) as { verdict: Verdict }[];
      if (!row) throw new Error(`no check ${checkId}`);
      await ds.query(`UPDATE checks SET verdict = $3::json WHERE account_id = $1 AND id = $2`, [accountId, checkId, JSON.stringify(change(row.verdict))]);
    },
    async setColumns(accountId, checkId, change): Promise<void> {
      const sets = Object.keys(change).map((c, i) => `${c} = $${i + 3}${c === "created_at" ? "::timestamptz" : ""}`);
      await ds.query(`UPDATE checks SET ${sets.join(", ")} WHERE account_id = $1 AND id = $2`, [accountId, checkId, ...Object.values(change)]);
    },
    async rewrite(accountId: string, checkId: string, r: AuditRecord): Promise<void> {
      const c = auditColumnsOf(r);
      await ds.query(
        `UPDATE checks SET created_at = $3::timestamptz, entity_type = $4, entity_value = $5, entity_id = $6, risk_score = $7, risk_level = $8,
                confidence = $9, channel = $10, actor_key_id = $11, request = $12::json, entity = $13::json, verdict = $14::json,
                source_outcomes = $15::json, ruleset = $16, data_versions = $17::json, prev_hash = $18, record_hash = $19,
                hash_version = $20, hash_key_id = $21, recommended_action = $22, signal_codes = $23
          WHERE account_id = $1 AND id = $2`,
        [accountId, checkId, r.created_at, c.entity_type, c.entity_value, c.entity_id, c.risk_score, c.risk_level, c.confidence, c.channel, c.actor_key_id,
          JSON.stringify(r.request), JSON.stringify(r.entity), JSON.stringify(r.verdict), JSON.stringify(r.source_outcomes), r.ruleset,
          JSON.stringify(r.data_versions), r.prev_hash, r.record_hash, r.hash_version, r.hash_key_id, r.verdict.recommended_action, signalCodesOf(r.verdict)],
      );
    },
    async setHead(accountId: string, count: number, lastHash: string | null): Promise<void> {
      await ds.query(`UPDATE check_chain_heads SET seq = $2, last_hash = $3 WHERE account_id = $1`, [accountId, count, lastHash]);
    },
    async remove(accountId: string, checkId: string): Promise<void> {
      await ds.query(`DELETE FROM checks WHERE account_id = $1 AND id = $2`, [accountId, checkId]);
    },
    async swap(accountId: string, a: string, b: string): Promise<void> {
      await ds.transaction(async (m) => {
        const rows = (await m.query(`SELECT id, seq FROM checks WHERE account_id = $1 AND id IN ($2, $3)`, [accountId, a, b])) as { id: string; seq: number }[];
        const seqA = rows.find((r) => r.id === a)?.seq;
        const seqB = rows.find((r) => r.id === b)?.seq;
        if (seqA === undefined || seqB === undefined) throw new Error("no such checks");
        // Through a free value: the (account_id, seq) unique constraint is checked row by row.
        await m.query(`UPDATE checks SET seq = -1 WHERE account_id = $1 AND id = $2`, [accountId, a]);
        await m.query(`UPDATE checks SET seq = $3 WHERE account_id = $1 AND id = $2`, [accountId, b, seqA]);
        await m.query(`UPDATE checks SET seq = $3 WHERE account_id = $1 AND id = $2`, [accountId, a, seqB]);
      });
    },
  };
}
