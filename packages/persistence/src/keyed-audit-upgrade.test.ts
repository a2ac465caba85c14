import { createHash } from "node:crypto";
import { auditColumnsOf, legacyRecordHash, type NewAuditRecord } from "@svc/core";
import { anAuditRecord, uniqueId } from "@svc/testing";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HmacAuditKeyring } from "./audit-keys.js";
import { openDataSource } from "./data-source.js";
import { TypeOrmCheckRepository } from "./repositories/typeorm-check-repository.js";
import { scratchDatabase, type ScratchDatabase } from "./scratch-database.js";

const PG_URL = process.env.TEST_DATABASE_URL;
const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || PG_URL);
const sha = { sha256: (m: string) => createHash("sha256").update(m, "utf8").digest("hex") };

/** Writes `n` records as the store did before keyed hashing: plain SHA-256 chain, no key columns, an unsealed head. */
async function writeLegacyChain(ds: DataSource, accountId: string, n: number): Promise<string[]> {
  let prev: string | null = null;
  const ids: string[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const r: NewAuditRecord = anAuditRecord({ account_id: accountId, created_at: new Date(Date.UTC(2026, 9, 1, 12, seq)).toISOString() });
    const hash = legacyRecordHash({ ...r, prev_hash: prev }, sha);
    const c = auditColumnsOf(r);
    await ds.query(
      `INSERT INTO checks (id, account_id, seq, created_at, entity_type, entity_value, entity_id, risk_score, risk_level, confidence, channel, actor_key_id,
                           request, entity, verdict, source_outcomes, ruleset, data_versions, prev_hash, record_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb, $15::jsonb, $16::jsonb, $17, $18::jsonb, $19, $20)`,
      [r.id, accountId, seq, r.created_at, c.entity_type, c.entity_value, c.entity_id, c.risk_score, c.risk_level, c.confidence, c.channel, c.actor_key_id,
        JSON.stringify(r.request), JSON.stringify(r.entity), JSON.stringify(r.verdict), JSON.stringify(r.source_outcomes), r.ruleset, JSON.stringify(r.data_versions), prev, hash],
    );
    prev = hash;
    ids.push(r.id);
  }
  await ds.query(`INSERT INTO check_chain_heads (account_id, seq, last_hash) VALUES ($1, $2, $3)`, [accountId, n, prev]);
  return ids;
}

describe.each(engines)("upgrading to keyed audit hashes on %s", (engine) => {
  let ds: DataSource;
  let scratch: ScratchDatabase | null = null;
  beforeAll(async () => {
    if (engine === "postgres") scratch = await scratchDatabase(PG_URL as string);
    ds = await openDataSource(scratch ? { url: scratch.url } : {});
  }, 120_000);
  afterAll(async () => {
    await ds?.destroy();
    await scratch?.drop();
  });

  it("keeps records written before verifiable (as legacy), seals their head at start-up, and chains new keyed records after them", async () => {
    const keys = new HmacAuditKeyring("the upgrade test's audit key, 32+ chars");
    const repo = new TypeOrmCheckRepository(ds, keys);
    // The schema as it was before 1795306500000 (later migrations undone first).
    while (Number(((await ds.query(`SELECT "timestamp" FROM migrations ORDER BY "timestamp" DESC LIMIT 1`)) as { timestamp: string }[])[0]?.timestamp) >= 1795306500000) await ds.undoLastMigration();
    const account = uniqueId("acc");
    const [, second] = await writeLegacyChain(ds, account, 3);
    const edited = uniqueId("acc");
    const [, tampered] = await writeLegacyChain(ds, edited, 3);
    await ds.query(`UPDATE checks SET entity_value = 'harmless.example' WHERE id = $1`, [tampered]);
    await ds.runMigrations();

    // Before start-up sealed the head, the chain does not verify: an unsealed head proves nothing.
    expect(await repo.verifyChain(account)).toMatchObject({ ok: false, first_bad: { id: null, reason: "hash_mismatch" } });
    expect(await repo.sealUnsealedHeads()).toBe(2);
    expect(await repo.verifyChain(account)).toEqual({ ok: true, checked: 3, legacy: 3 });
    // A record edited before the upgrade is still caught by its own scheme.
    expect(await repo.verifyChain(edited)).toMatchObject({ ok: false, checked: 2, first_bad: { id: tampered, reason: "hash_mismatch" } });

    const next = await repo.save(anAuditRecord({ account_id: account }));
    expect(next).toMatchObject({ hash_version: 2, hash_key_id: keys.keyId });
    expect(await repo.verifyChain(account)).toEqual({ ok: true, checked: 4, legacy: 3 });
    expect(await repo.get(account, second as string)).toMatchObject({ hash_version: 1, hash_key_id: null });

    // Someone with database access rewrites a keyed record under the unkeyed scheme: refused.
    const rec = await repo.get(account, next.id);
    const forged = { ...rec!, ruleset: "forged" };
    await ds.query(`UPDATE checks SET ruleset = 'forged', hash_version = 1, hash_key_id = NULL, record_hash = $2 WHERE id = $1`, [next.id, legacyRecordHash(forged, sha)]);
    expect(await repo.verifyChain(account)).toMatchObject({ ok: false, first_bad: { id: next.id, reason: "hash_mismatch" } });
  }, 120_000);
});
