import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditColumnsOf, legacyRecordHash, type AuditRecord, auditExportRowOf, type CheckRepository, type Verdict } from "@svc/core";
import { createHash } from "node:crypto";
import { anAuditRecord, uniqueId } from "../audit-builders.js";

/** Edits behind the repository's back, as someone with database access (but not the audit key) could make them. */
export interface CheckTamper {
  setVerdict(accountId: string, checkId: string, change: (v: Verdict) => Verdict): Promise<void>;
  /** Edits the columns history and export list (not the record's JSON). */
  setColumns(accountId: string, checkId: string, change: { entity_value?: string; risk_score?: number; risk_level?: string; created_at?: string }): Promise<void>;
  /** Overwrites the whole stored record (fields, listed columns, hashes) with the given one. */
  rewrite(accountId: string, checkId: string, record: AuditRecord): Promise<void>;
  /** Moves the chain head (its count and last hash) without its keyed hash. */
  setHead(accountId: string, count: number, lastHash: string | null): Promise<void>;
  remove(accountId: string, checkId: string): Promise<void>;
  /** Exchanges the chain positions of two records. */
  swap(accountId: string, a: string, b: string): Promise<void>;
}

export interface CheckRepositoryFixture {
  readonly repo: CheckRepository;
  readonly tamper: CheckTamper;
  close(): Promise<void>;
}

/** What an attacker without the key can compute: plain SHA-256 over the record's canonical form. */
const sha = { sha256: (m: string) => createHash("sha256").update(m, "utf8").digest("hex") };

const at = (minute: number): string => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The behaviour every `CheckRepository` must show; `make` gives a fresh (or isolated) repository. */
export function checkRepositoryContract(name: string, make: () => Promise<CheckRepositoryFixture>): void {
  describe(`CheckRepository contract: ${name}`, () => {
    let f: CheckRepositoryFixture;
    let account: string;
    beforeEach(async () => {
      f = await make();
      account = uniqueId("acc");
    });
    afterEach(async () => {
      await f.close();
    });

    const saveMany = async (n: number, acc = account): Promise<AuditRecord[]> => {
      const out: AuditRecord[] = [];
      for (let i = 0; i < n; i++) out.push(await f.repo.save(anAuditRecord({ account_id: acc, created_at: at(i) })));
      return out;
    };

    it("finds what a request stored under its Idempotency-Key since it claimed the key, and nothing of another key, time or account", async () => {
      const other = uniqueId("acc");
      await f.repo.save({ ...anAuditRecord({ account_id: account, created_at: at(1) }), idempotency_key: "k-1" });
      const [first] = await f.repo.saveMany([
        { ...anAuditRecord({ account_id: account, created_at: at(5) }), idempotency_key: "k-1" },
        { ...anAuditRecord({ account_id: account, created_at: at(6) }), idempotency_key: "k-1" },
      ]);
      await f.repo.save({ ...anAuditRecord({ account_id: account, created_at: at(7) }), idempotency_key: "k-2" });
      await f.repo.save(anAuditRecord({ account_id: account, created_at: at(8) }));
      await f.repo.save({ ...anAuditRecord({ account_id: other, created_at: at(9) }), idempotency_key: "k-1" });
      const found = await f.repo.byIdempotencyKey(account, "k-1", new Date(at(5)));
      expect(found.map((r) => r.created_at)).toEqual([at(5), at(6)]);
      expect(found[0]).toEqual(first);
      // The key is kept beside the record, outside it: the record and its chain are as without it.
      expect(found[0]).not.toHaveProperty("idempotency_key");
      expect((await f.repo.verifyChain(account)).ok).toBe(true);
      expect(await f.repo.byIdempotencyKey(account, "k-3", new Date(at(0)))).toEqual([]);
      expect(await f.repo.byIdempotencyKey(other, "k-2", new Date(at(0)))).toEqual([]);
    });

    it("chains records: the first has no prev_hash, each next one points at the previous hash", async () => {
      const [a, b, c] = await saveMany(3);
      expect(a?.prev_hash).toBeNull();
      expect(a?.record_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(b?.prev_hash).toBe(a?.record_hash);
      expect(c?.prev_hash).toBe(b?.record_hash);
    });

    it("gives back exactly what it stored (so the hash still verifies)", async () => {
      const input = anAuditRecord({ account_id: account, created_at: "2026-11-01T12:00:00Z", key_id: null, channel: "cli" });
      const saved = await f.repo.save(input);
      expect(saved.created_at).toBe("2026-11-01T12:00:00.000Z");
      expect(saved.verdict).toEqual(input.verdict);
      expect(await f.repo.get(account, input.id)).toEqual(saved);
    });

    it("never shows one account's record to another", async () => {
      const [mine] = await saveMany(1);
      const other = uniqueId("acc");
      expect(await f.repo.get(other, mine?.id as string)).toBeNull();
      expect(await f.repo.get(account, "chk_unknown")).toBeNull();
      expect((await f.repo.history(other)).items).toEqual([]);
      expect(await collect(f.repo.exportRows(other))).toEqual([]);
    });

    it("rejects a duplicate id and leaves the chain intact", async () => {
      const [first] = await saveMany(1);
      await expect(f.repo.save(anAuditRecord({ account_id: account, id: first?.id }))).rejects.toThrow();
      const next = await f.repo.save(anAuditRecord({ account_id: account, created_at: at(5) }));
      expect(next.prev_hash).toBe(first?.record_hash);
      expect(await f.repo.verifyChain(account)).toEqual({ ok: true, checked: 2, legacy: 0 });
    });

    it("lists history newest first, ties broken by id, and pages through it without gaps", async () => {
      const same = at(30);
      const saved = [
        await f.repo.save(anAuditRecord({ account_id: account, created_at: at(1), id: uniqueId("chk") })),
        await f.repo.save(anAuditRecord({ account_id: account, created_at: same, id: "chk_b" + uniqueId("") })),
        await f.repo.save(anAuditRecord({ account_id: account, created_at: same, id: "chk_a" + uniqueId("") })),
        await f.repo.save(anAuditRecord({ account_id: account, created_at: same, id: "chk_C" + uniqueId("") })),
        await f.repo.save(anAuditRecord({ account_id: account, created_at: at(10) })),
      ];
      const expected = [...saved]
        .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
        .map((r) => r.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await f.repo.history(account, { limit: 2, cursor });
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((i) => i.id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toEqual(expected);
      expect(pages).toBe(3);
      const full = await f.repo.history(account);
      expect(full.next_cursor).toBeNull();
      const top = full.items[0];
      expect(top).toMatchObject({ risk_level: "low", confidence: "medium", channel: "api" });
      expect(top?.entity.id).toBe(`domain:${top?.entity.value}`);
      expect(top?.evaluated_at).toBe(top?.created_at);
    });

    it("filters history by type, risk level and time range", async () => {
      await f.repo.save(anAuditRecord({ account_id: account, created_at: at(1), type: "domain", risk_level: "low" }));
      const url = await f.repo.save(anAuditRecord({ account_id: account, created_at: at(2), type: "url", value: "https://a.example/x", risk_level: "high", risk_score: 70 }));
      const late = await f.repo.save(anAuditRecord({ account_id: account, created_at: at(3), type: "domain", risk_level: "high", risk_score: 80 }));
      const ids = async (q: Parameters<CheckRepository["history"]>[1]) => (await f.repo.history(account, q)).items.map((i) => i.id);
      expect(await ids({ type: "url" })).toEqual([url.id]);
      expect(await ids({ risk_level: "high" })).toEqual([late.id, url.id]);
      expect(await ids({ since: new Date(at(2)), until: new Date(at(3)) })).toEqual([url.id]);
      expect(await ids({ type: "domain", risk_level: "high", since: new Date(at(3)) })).toEqual([late.id]);
    });

    it("clamps the page size to 1..100 and refuses a cursor it did not issue", async () => {
      await saveMany(3);
      expect((await f.repo.history(account, { limit: 0 })).items).toHaveLength(1);
      expect((await f.repo.history(account, { limit: 1000 })).items).toHaveLength(3);
      await expect(f.repo.history(account, { cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "history.invalid_cursor" });
    });

    it("never returns more than 100 items per page", async () => {
      await Promise.all(Array.from({ length: 101 }, (_, i) => f.repo.save(anAuditRecord({ account_id: account, created_at: at(i % 50) }))));
      const page = await f.repo.history(account, { limit: 500 });
      expect(page.items).toHaveLength(100);
      expect(page.next_cursor).not.toBeNull();
      const rest = await f.repo.history(account, { limit: 500, cursor: page.next_cursor });
      expect(rest.items).toHaveLength(1);
      expect(rest.next_cursor).toBeNull();
    });

    it("exports every matching record oldest first, across batches", async () => {
      const saved = await saveMany(5);
      await saveMany(2, uniqueId("acc"));
      const all = await collect(f.repo.exportRows(account, { batchSize: 2 }));
      expect(all.map((r) => r.id)).toEqual(saved.map((r) => r.id));
      expect(all[0]).toEqual(saved[0]);
      const some = await collect(f.repo.exportRows(account, { batchSize: 2, since: new Date(at(1)), until: new Date(at(4)) }));
      expect(some.map((r) => r.id)).toEqual(saved.slice(1, 4).map((r) => r.id));
      expect(await collect(f.repo.exportRows(account, { risk_level: "critical" }))).toEqual([]);
    });

    it("exports summaries: exactly each exported record's CSV line, with the same filters and order", async () => {
      const saved = await saveMany(5);
      await saveMany(2, uniqueId("acc"));
      // Signals with and without points, in an order that is not alphabetical.
      const base = anAuditRecord({ account_id: account, created_at: at(9) });
      const signal = base.verdict.signals[0]!;
      const scored = await f.repo.save({
        ...base,
        verdict: { ...base.verdict, signals: [{ ...signal, code: "domain.lookalike_brand", points: 75 }, signal, { ...signal, code: "domain.suspicious_tld", points: 10 }] },
      });
      const rows = await collect(f.repo.exportSummaries(account, { batchSize: 2 }));
      expect(rows).toEqual([...saved, scored].map(auditExportRowOf));
      expect(rows.at(-1)?.signals).toBe("domain.lookalike_brand;domain.suspicious_tld");
      expect(rows[0]?.signals).toBe("");
      const some = await collect(f.repo.exportSummaries(account, { batchSize: 2, since: new Date(at(1)), until: new Date(at(4)) }));
      expect(some.map((r) => r.id)).toEqual(saved.slice(1, 4).map((r) => r.id));
      expect(await collect(f.repo.exportSummaries(uniqueId("acc")))).toEqual([]);
    });

    it("verifies an intact chain, and an empty one", async () => {
      await saveMany(4);
      expect(await f.repo.verifyChain(account)).toEqual({ ok: true, checked: 4, legacy: 0 });
      expect(await f.repo.verifyChain(uniqueId("acc"))).toEqual({ ok: true, checked: 0, legacy: 0 });
    });

    it("seals each record with the keyed scheme and names the key", async () => {
      const [a] = await saveMany(1);
      expect(a).toMatchObject({ hash_version: 2, hash_key_id: expect.stringMatching(/\S/) });
      expect(await f.repo.get(account, a?.id as string)).toMatchObject({ hash_version: 2, hash_key_id: a?.hash_key_id });
    });

    it("detects an edited verdict, and edited signals", async () => {
      const [, b] = await saveMany(3);
      await f.tamper.setVerdict(account, b?.id as string, (v) => ({ ...v, risk_score: 0, risk_level: "low" }));
      expect(await f.repo.verifyChain(account)).toMatchObject({ ok: false, checked: 2, first_bad: { id: b?.id, reason: "hash_mismatch" } });
      const other = uniqueId("acc");
      const [, d] = await saveMany(3, other);
      await f.tamper.setVerdict(other, d?.id as string, (v) => ({ ...v, signals: v.signals.map((x) => ({ ...x, points: 0, code: "none" })) }));
      expect(await f.repo.verifyChain(other)).toMatchObject({ ok: false, checked: 2, first_bad: { id: d?.id, reason: "hash_mismatch" } });
    });

    const columnEdits = [
      ["entity_value", { entity_value: "harmless.example" }],
      ["risk_score", { risk_score: 1 }],
      ["risk_level", { risk_level: "critical" }],
      ["created_at", { created_at: "2020-01-01T00:00:00.000Z" }],
    ] as const;
    for (const [column, change] of columnEdits) {
      it(`detects ${column} edited in its column alone, naming exactly that record`, async () => {
        const [, b] = await saveMany(4);
        await f.tamper.setColumns(account, b?.id as string, change);
        expect(await f.repo.verifyChain(account)).toMatchObject({ ok: false, checked: 2, first_bad: { id: b?.id, reason: "hash_mismatch" } });
      });
    }

    it("detects an edit re-hashed with plain SHA-256 (no key), whether it keeps the keyed version or claims the unkeyed one", async () => {
      for (const hash_version of [2, 1] as const) {
        const acc = uniqueId("acc");
        const [, b] = await saveMany(3, acc);
        const edited = { ...(b as AuditRecord), verdict: { ...(b as AuditRecord).verdict, risk_score: 0, risk_level: "low" as const } };
        const forged: AuditRecord = { ...edited, record_hash: legacyRecordHash(edited, sha), hash_version, hash_key_id: hash_version === 2 ? edited.hash_key_id : null };
        expect(auditColumnsOf(forged).risk_score).toBe(0);
        await f.tamper.rewrite(acc, forged.id, forged);
        expect(await f.repo.verifyChain(acc)).toMatchObject({ ok: false, checked: 2, first_bad: { id: b?.id, reason: "hash_mismatch" } });
      }
    });

    it("detects a deleted record in the middle", async () => {
      const [, b, c] = await saveMany(4);
      await f.tamper.remove(account, b?.id as string);
      expect(await f.repo.verifyChain(account)).toMatchObject({ ok: false, first_bad: { id: c?.id, reason: "chain_broken" } });
    });

    it("detects a deleted last record, also when the head is moved back to hide it", async () => {
      const [, b, c] = await saveMany(3);
      await f.tamper.remove(account, c?.id as string);
      expect(await f.repo.verifyChain(account)).toMatchObject({ ok: false, checked: 2, first_bad: { id: null, reason: "missing" } });
      await f.tamper.setHead(account, 2, b?.record_hash as string);
      expect(await f.repo.verifyChain(account)).toMatchObject({ ok: false, first_bad: { id: null, reason: "hash_mismatch" } });
    });

    it("detects reordered records", async () => {
      const [, b, c] = await saveMany(4);
      await f.tamper.swap(account, b?.id as string, c?.id as string);
      expect(await f.repo.verifyChain(account)).toMatchObject({ ok: false, first_bad: { id: c?.id, reason: "chain_broken" } });
    });

    it("verifies a stretch of the chain by time, anchored on the record before it", async () => {
      const saved = await saveMany(6);
      expect(await f.repo.verifyChain(account, { since: new Date(at(2)), until: new Date(at(5)) })).toEqual({ ok: true, checked: 3, legacy: 0 });
      expect(await f.repo.verifyChain(account, { since: new Date(at(10)) })).toEqual({ ok: true, checked: 0, legacy: 0 });
      await f.tamper.setColumns(account, saved[3]?.id as string, { risk_score: 99 });
      expect(await f.repo.verifyChain(account, { since: new Date(at(2)) })).toMatchObject({ ok: false, checked: 2, first_bad: { id: saved[3]?.id } });
      expect(await f.repo.verifyChain(account, { until: new Date(at(3)) })).toEqual({ ok: true, checked: 3, legacy: 0 });
    });

    it("forms one valid chain from 50 concurrent saves", async () => {
      const saved = await Promise.all(Array.from({ length: 50 }, (_, i) => f.repo.save(anAuditRecord({ account_id: account, created_at: at(i) }))));
      expect(new Set(saved.map((r) => r.prev_hash)).size).toBe(50);
      expect(saved.filter((r) => r.prev_hash === null)).toHaveLength(1);
      expect(await f.repo.verifyChain(account)).toEqual({ ok: true, checked: 50, legacy: 0 });
    });

    it("saves a group in one go, chained in order, interleaving safely with single saves", async () => {
      const first = await f.repo.save(anAuditRecord({ account_id: account, created_at: at(0) }));
      const [group] = await Promise.all([
        f.repo.saveMany(Array.from({ length: 20 }, (_, i) => anAuditRecord({ account_id: account, created_at: at(i + 1) }))),
        ...Array.from({ length: 5 }, (_, i) => f.repo.save(anAuditRecord({ account_id: account, created_at: at(i + 30) }))),
      ]);
      expect(group).toHaveLength(20);
      for (let i = 1; i < group.length; i++) expect(group[i]?.prev_hash).toBe(group[i - 1]?.record_hash);
      expect(first.prev_hash).toBeNull();
      expect(await f.repo.verifyChain(account)).toEqual({ ok: true, checked: 26, legacy: 0 });
      expect(await f.repo.saveMany([])).toEqual([]);
    });

    it("stores nothing of a group with a duplicate id", async () => {
      const a = anAuditRecord({ account_id: account, created_at: at(0) });
      await f.repo.save(a);
      await expect(f.repo.saveMany([anAuditRecord({ account_id: account, created_at: at(1) }), a])).rejects.toThrow();
      expect(await f.repo.verifyChain(account)).toEqual({ ok: true, checked: 1, legacy: 0 });
    });

    it("keeps each account's chain separate when saves interleave", async () => {
      const other = uniqueId("acc");
      await Promise.all(Array.from({ length: 10 }, (_, i) => f.repo.save(anAuditRecord({ account_id: i % 2 ? account : other, created_at: at(i) }))));
      expect(await f.repo.verifyChain(account)).toEqual({ ok: true, checked: 5, legacy: 0 });
      expect(await f.repo.verifyChain(other)).toEqual({ ok: true, checked: 5, legacy: 0 });
    });
  });
}
