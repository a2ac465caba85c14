// The audit write path on its own, side by side in one process and one database: the check
// repository's `saveMany` as it runs in the API (one statement in autocommit after the place the
// repository last left the chain), the same repository's claim under the head's lock (raw
// prepared statements in one transaction: BEGIN, claim, one multi-row INSERT that also re-seals
// the head, COMMIT; what it does for an account's first group, or when another writer moved the
// head: here a fresh repository per group), and the first write path kept here as the baseline (a
// TypeORM `ds.transaction` with the same SQL as four statements: upsert head, multi-row INSERT,
// UPDATE head, plus BEGIN/COMMIT through the query runner).
//   npx tsx tools/bench/api/check-writes.ts [seconds per case, default 3] [pglite]
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), a fresh
// svc_bench_* database, dropped at the end; with `pglite`, an in-memory PGlite instead.
// The two paths alternate in short rounds so load from other processes hits both alike.
import { cpus, loadavg } from "node:os";
import { sealChainHead, sealRecord, signalCodesOf, type AuditMac, type AuditRecord, type NewAuditRecord } from "@svc/core";
import { HmacAuditKeyring, openDataSource, TypeOrmCheckRepository } from "@svc/persistence";
import { anAuditRecord } from "@svc/testing";
import type { DataSource } from "typeorm";
import { createDatabase, dbUrl, dropDatabase } from "./seed.js";

const SECONDS = Number(process.argv[2] ?? "3");
const PGLITE = process.argv.includes("pglite");
const GROUPS = [1, 20, 100];
const ROUND_MS = 250;

const COLUMNS = [
  "id", "account_id", "seq", "created_at", "entity_type", "entity_value", "entity_id", "risk_score", "risk_level",
  "confidence", "channel", "actor_key_id", "request", "entity", "verdict", "source_outcomes", "ruleset",
  "data_versions", "signals", "prev_hash", "record_hash", "hash_version", "hash_key_id", "idempotency_key",
  "recommended_action", "signal_codes",
] as const;
const JSON_COLUMNS = new Set(["request", "entity", "verdict", "source_outcomes", "data_versions", "signals"]);

/** The previous write path: TypeORM transaction, four statements (baseline). */
async function typeormSaveMany(ds: DataSource, mac: AuditMac, records: readonly NewAuditRecord[]): Promise<AuditRecord[]> {
  const first = records[0] as NewAuditRecord;
  return ds.transaction(async (m) => {
    const [head] = (await m.query(
      `INSERT INTO check_chain_heads (account_id, seq, last_hash) VALUES ($1, $2, NULL)
       ON CONFLICT (account_id) DO UPDATE SET seq = check_chain_heads.seq + $2 RETURNING seq, last_hash`,
      [first.account_id, records.length],
    )) as { seq: number; last_hash: string | null }[];
    if (!head) throw new Error("no head");
    const startSeq = head.seq - records.length + 1;
    let prev = startSeq === 1 ? null : head.last_hash;
    const sealed: AuditRecord[] = [];
    const params: unknown[] = [];
    const tuples: string[] = [];
    records.forEach((r, k) => {
      const s = sealRecord(r, prev, mac);
      prev = s.record_hash;
      sealed.push(s);
      const row: Record<string, unknown> = {
        id: s.id, account_id: s.account_id, seq: startSeq + k, created_at: new Date(s.created_at), entity_type: s.entity.type,
        entity_value: s.entity.value, entity_id: s.entity.id, risk_score: s.verdict.risk_score, risk_level: s.verdict.risk_level,
        confidence: s.verdict.confidence, channel: s.actor.channel, actor_key_id: s.actor.key_id, request: s.request, entity: s.entity,
        verdict: s.verdict, source_outcomes: [...s.source_outcomes], ruleset: s.ruleset, data_versions: { ...s.data_versions },
        signals: s.signals ? [...s.signals] : null, prev_hash: s.prev_hash, record_hash: s.record_hash, hash_version: s.hash_version,
        hash_key_id: s.hash_key_id, idempotency_key: null, recommended_action: s.verdict.recommended_action, signal_codes: signalCodesOf(s.verdict),
      };
      const base = params.length;
      tuples.push(`(${COLUMNS.map((c, i) => `$${base + i + 1}${JSON_COLUMNS.has(c) ? "::json" : ""}`).join(", ")})`);
      for (const c of COLUMNS) params.push(JSON_COLUMNS.has(c) ? JSON.stringify(row[c]) : row[c]);
    });
    await m.query(`INSERT INTO checks (${COLUMNS.join(", ")}) VALUES ${tuples.join(", ")}`, params);
    const h = sealChainHead({ account_id: first.account_id, count: head.seq, last_hash: prev }, mac);
    await m.query(`UPDATE check_chain_heads SET last_hash = $2, mac = $3, mac_key_id = $4 WHERE account_id = $1`, [first.account_id, prev, h.mac, h.mac_key_id]);
    return sealed;
  });
}

interface Tally { records: number; wallMs: number; cpuMs: number; lat: number[] }
const tally = (): Tally => ({ records: 0, wallMs: 0, cpuMs: 0, lat: [] });
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function main(): Promise<void> {
  const name = PGLITE ? null : await createDatabase("writes");
  const ds = await openDataSource(name ? { url: dbUrl(name), poolSize: 4 } : {});
  try {
    const mac = new HmacAuditKeyring("check-writes benchmark audit key, 32+ characters");
    const repo = new TypeOrmCheckRepository(ds, mac);
    const cpu = cpus()[0]?.model ?? "?";
    console.log(`node ${process.version}, ${cpu.includes("EPYC") ? "AMD EPYC" : cpu} × ${cpus().length}, ${PGLITE ? "PGlite (in memory)" : "PostgreSQL"}; ${SECONDS} s per case; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    console.log(`one account's records written group after group (as the group commit does); CPU = this process only`);
    let n = 0;
    const batch = (size: number, account: string): NewAuditRecord[] =>
      Array.from({ length: size }, () => anAuditRecord({ account_id: account, id: `chk_w${++n}`, value: `w${n}-example.com` }));
    const paths = {
      "TypeORM transaction (first)": (rs: readonly NewAuditRecord[]) => typeormSaveMany(ds, mac, rs),
      "raw, claim under lock (previous)": (rs: readonly NewAuditRecord[]) => new TypeOrmCheckRepository(ds, mac).saveMany(rs),
      "raw, one statement (now)": (rs: readonly NewAuditRecord[]) => repo.saveMany(rs),
    } as const;
    for (const size of GROUPS) {
      const t: Record<string, Tally> = Object.fromEntries(Object.keys(paths).map((k) => [k, tally()]));
      const account = `acc_writes_${size}`;
      // Warm-up (prepares statements, JIT).
      for (const f of Object.values(paths)) for (let i = 0; i < 5; i++) await f(batch(size, account));
      const end = performance.now() + SECONDS * 1000 * 2;
      while (performance.now() < end) {
        for (const [label, f] of Object.entries(paths)) {
          const tt = t[label] as Tally;
          const roundEnd = performance.now() + ROUND_MS;
          while (performance.now() < roundEnd) {
            const rs = batch(size, account);
            const c0 = process.cpuUsage();
            const w0 = performance.now();
            await f(rs);
            const w = performance.now() - w0;
            const c = process.cpuUsage(c0);
            tt.records += size;
            tt.wallMs += w;
            tt.cpuMs += (c.user + c.system) / 1000;
            tt.lat.push(w);
          }
        }
      }
      const [a, b, c] = Object.values(t) as [Tally, Tally, Tally];
      for (const [label, tt] of Object.entries(t)) {
        console.log(`group of ${String(size).padStart(3)} · ${label.padEnd(33)} ${Math.round((tt.records / tt.wallMs) * 1000).toLocaleString("en").padStart(7)} records/s  p50 ${pct(tt.lat, 50).toFixed(2)} ms  p99 ${pct(tt.lat, 99).toFixed(2)} ms per group  API CPU ${((tt.cpuMs / tt.records) * 1000).toFixed(0)} µs per record`);
      }
      const ratio = (x: Tally, y: Tally) => `${((x.records / x.wallMs) / (y.records / y.wallMs)).toFixed(2)}× records/s, ${(x.cpuMs / x.records / (y.cpuMs / y.records)).toFixed(2)}× CPU per record`;
      console.log(`group of ${String(size).padStart(3)} · one statement ÷ claim under lock: ${ratio(c, b)}; one statement ÷ TypeORM: ${ratio(c, a)}`);
    }
    const verify = await repo.verifyChain("acc_writes_20");
    console.log(`chain of acc_writes_20 (the three paths interleaved): ${verify.ok ? "verifies" : "BROKEN"}, ${verify.checked} records`);
  } finally {
    await ds.destroy();
    if (name) await dropDatabase(name);
  }
}

await main();
