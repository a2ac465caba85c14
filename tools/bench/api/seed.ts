// Databases for the API benchmark: fresh PostgreSQL databases (svc_bench_*), benchmark accounts and
// keys created through the repositories, and bulk data written with SQL (INSERT … SELECT
// generate_series): a graph with a heavy-tailed degree distribution and a million audit rows.
import { randomBytes } from "node:crypto";
import { apiKeyHint, formatApiKey, hashApiKey } from "@svc/server-ports";
import { openDataSource, scratchDatabase, TypeOrmAccountRepository, TypeOrmApiKeyRepository, type ScratchDatabase } from "@svc/persistence";
import pg from "pg";

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

const scratch = new Map<string, ScratchDatabase>();

/** A new empty database `svc_bench_<suffix>_<random>`; the caller drops it. */
export async function createDatabase(suffix: string): Promise<string> {
  const db = await scratchDatabase(ADMIN_URL, `svc_bench_${suffix}`);
  scratch.set(db.name, db);
  return db.name;
}

export async function dropDatabase(name: string): Promise<void> {
  const db = scratch.get(name);
  if (!db) throw new Error(`refusing to drop ${name}: not created by this run`);
  await db.drop();
  scratch.delete(name);
}

export interface BenchKey {
  readonly accountId: string;
  readonly keyId: string;
  readonly key: string;
}

/**
 * Migrates the database (PostgreSQL `url`, or PGlite `dataDir`) and creates `accounts` pro accounts
 * with `keys` API keys spread over them round-robin, through the same repositories the API uses.
 * The per-minute rate limit is per key, so load spread over many keys is not throttled; the
 * audit chain is per account.
 */
export async function createKeys(target: { url: string } | { dataDir: string }, accounts: number, keys: number, prefix = "acc_bench"): Promise<BenchKey[]> {
  const ds = await openDataSource("url" in target ? { url: target.url, poolSize: 2 } : { dataDir: target.dataDir });
  try {
    const accountRepo = new TypeOrmAccountRepository(ds);
    const keyRepo = new TypeOrmApiKeyRepository(ds);
    const now = new Date();
    const ids: string[] = [];
    for (let a = 0; a < accounts; a++) ids.push((await accountRepo.create({ id: `${prefix}${a}`, name: `benchmark ${a}`, plan: "pro" }, now)).id);
    const out: BenchKey[] = [];
    for (let k = 0; k < keys; k++) {
      const key = formatApiKey(randomBytes(32));
      const accountId = ids[k % ids.length] as string;
      const rec = await keyRepo.create({ account_id: accountId, key_hash: hashApiKey(key), prefix: apiKeyHint(key) }, now);
      out.push({ accountId, keyId: rec.id, key });
    }
    return out;
  } finally {
    await ds.destroy();
  }
}

/** Counts of audit rows for `accountIds`, and how many of `ids` are among them (PostgreSQL or PGlite). */
export async function auditCounts(target: { url: string } | { dataDir: string }, accountIds: readonly string[], ids: readonly string[]): Promise<{ rows: number; found: number }> {
  const ds = await openDataSource("url" in target ? { url: target.url, poolSize: 1 } : { dataDir: target.dataDir });
  try {
    const [r] = (await ds.query(`SELECT count(*)::int AS n FROM checks WHERE account_id = ANY ($1::text[])`, [accountIds])) as { n: number }[];
    const [f] = (await ds.query(`SELECT count(*)::int AS n FROM checks WHERE id = ANY ($1::text[])`, [ids])) as { n: number }[];
    return { rows: r?.n ?? 0, found: f?.n ?? 0 };
  } finally {
    await ds.destroy();
  }
}

const WORDS = ["bakery", "dental", "studio", "garden", "labs", "media", "design", "clinic", "coffee", "books", "travel", "homes", "motors", "tech", "cloud", "data", "events", "photo", "music", "kitchen", "pets", "school", "capital", "supply", "market", "wallet", "login", "secure", "claim", "support"];
const TLDS = ["com", "com", "com", "net", "org", "io", "co", "xyz", "top", "info", "de", "co.uk"];
const sqlArray = (a: readonly string[]) => `ARRAY[${a.map((w) => `'${w}'`).join(",")}]`;

export interface GraphStats {
  readonly nodes: number;
  readonly edges: number;
  readonly maxDegree: number;
  readonly p50Degree: number;
  readonly p99Degree: number;
  readonly meanDegree: number;
  readonly seconds: number;
}

/**
 * `nodes` nodes (80 % domains, 10 % IP addresses, 10 % e-mail addresses; ~3 % of them scored high
 * risk) and exactly `edges` edges: each e-mail → its domain, the rest from a uniformly chosen node
 * to a node chosen with P(rank r) ∝ r^-1/2, i.e. preferential-attachment-like in-degrees (a few
 * hubs with thousands of edges — shared hosts, mail providers — and a long tail), out-degrees
 * Poisson. Written with INSERT … SELECT generate_series; the walk follows edges both ways. The graph
 * tables are switched to UNLOGGED for the load (see below).
 */
export async function seedGraph(url: string, nodes: number, edges: number, seed = 0.42): Promise<GraphStats> {
  const t0 = performance.now();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SELECT setseed(${seed})`);
    // Plain SQL functions with only immutable casts inside, so that the planner inlines them (an
    // IMMUTABLE label over `'n' || i` — a stable cast — would make every call go through the
    // function executor, about 100 times slower).
    await c.query(`CREATE FUNCTION bench_domain(i int) RETURNS text LANGUAGE sql AS $$
      SELECT 'n' || i::text || '-' || (${sqlArray(WORDS)})[1 + (i / 7) % ${WORDS.length}] || '.' || (${sqlArray(TLDS)})[1 + (i / 3) % ${TLDS.length}] $$`);
    await c.query(`CREATE FUNCTION bench_type(i int) RETURNS text LANGUAGE sql AS $$
      SELECT CASE i % 10 WHEN 8 THEN 'ip_address' WHEN 9 THEN 'email' ELSE 'domain' END $$`);
    await c.query(`CREATE FUNCTION bench_value(i int) RETURNS text LANGUAGE sql AS $$
      SELECT CASE i % 10
        WHEN 8 THEN '45.' || ((i >> 16) & 255)::text || '.' || ((i >> 8) & 255)::text || '.' || (i & 255)::text
        WHEN 9 THEN (ARRAY['info','sales','admin','support','billing','hello'])[1 + (i / 10) % 6] || '@' || bench_domain(i - 9)
        ELSE bench_domain(i) END $$`);
    await c.query(`CREATE FUNCTION bench_id(i int) RETURNS text LANGUAGE sql AS $$ SELECT bench_type(i) || ':' || bench_value(i) $$`);
    // Bulk load without WAL: unlogged tables are read exactly like logged ones (same heap, same
    // indexes, same buffer cache); only crash safety differs, which a benchmark database does not need.
    await c.query(`SET synchronous_commit = off`);
    await c.query(`SET maintenance_work_mem = '256MB'`);
    // A logged table may not reference an unlogged one: every table with a foreign key to
    // graph_nodes (graph_edges, graph_node_risks, …) goes first.
    await c.query(`ALTER TABLE graph_edges SET UNLOGGED`);
    const referencing = (await c.query(`SELECT DISTINCT conrelid::regclass::text AS t FROM pg_constraint WHERE contype = 'f' AND confrelid = 'graph_nodes'::regclass AND conrelid <> confrelid`)).rows as { t: string }[];
    for (const r of referencing) await c.query(`ALTER TABLE ${r.t} SET UNLOGGED`);
    await c.query(`ALTER TABLE graph_nodes SET UNLOGGED`);
    await c.query(`INSERT INTO graph_nodes (id, type, value, risk_score, risk_level)
      SELECT bench_id(i), bench_type(i), bench_value(i),
             CASE WHEN i % 31 = 0 THEN 75 + (i % 25) WHEN i % 3 = 0 THEN (i % 40) END,
             CASE WHEN i % 31 = 0 THEN (CASE WHEN 75 + (i % 25) >= 90 THEN 'critical' ELSE 'high' END) WHEN i % 3 = 0 THEN 'low' END
        FROM generate_series(0, ${nodes - 1}) i`);
    // Endpoints as numbers first (deduplicated, exactly `edges`), then one INSERT of the ids.
    await c.query(`CREATE TEMP TABLE e AS SELECT i AS f, i - 9 AS t, 'mail_domain' AS rel FROM generate_series(9, ${nodes - 1}, 10) i`);
    for (let round = 0; round < 20; round++) {
      const [{ n }] = (await c.query(`SELECT count(*)::int AS n FROM e`)).rows as [{ n: number }];
      const missing = edges - n;
      if (missing <= 0) break;
      await c.query(`INSERT INTO e
        SELECT DISTINCT f, t, CASE WHEN t % 10 = 8 THEN 'resolves_to' ELSE (ARRAY['links_to','redirects_to','reported_with','same_registrant'])[1 + (f + t) % 4] END
          FROM (SELECT floor(random() * ${nodes})::int AS f, floor(${nodes} * power(random(), 2))::int AS t FROM generate_series(1, ${Math.ceil(missing * 1.02)})) s
         WHERE f <> t AND NOT EXISTS (SELECT 1 FROM e WHERE e.f = s.f AND e.t = s.t)`);
    }
    // Constraints and indexes of graph_edges are dropped for the load and rebuilt after it, from
    // their own definitions (so the schema stays the migrations'): one sort per index instead of a
    // million random index insertions and a million foreign-key probes.
    const cons = (await c.query(`SELECT conname, pg_get_constraintdef(oid) AS def, contype FROM pg_constraint WHERE conrelid = 'graph_edges'::regclass ORDER BY contype DESC`)).rows as { conname: string; def: string; contype: string }[];
    const idx = (await c.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'graph_edges' AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = 'graph_edges'::regclass)`)).rows as { indexname: string; indexdef: string }[];
    for (const k of cons) await c.query(`ALTER TABLE graph_edges DROP CONSTRAINT "${k.conname}"`);
    for (const i of idx) await c.query(`DROP INDEX "${i.indexname}"`);
    await c.query(`INSERT INTO graph_edges (from_id, to_id, relation, weight, source, first_seen, last_seen)
      SELECT bench_id(f), bench_id(t), rel, 1, CASE WHEN rel = 'mail_domain' THEN 'checks' ELSE (ARRAY['checks','reports','intel'])[1 + (f % 3)] END,
             ts, ts + interval '1 day' * (f % 30)
        FROM (SELECT f, t, rel, now() - interval '1 day' * ((f * 7 + t) % 365) AS ts FROM e
               ORDER BY (rel = 'mail_domain') DESC, random() LIMIT ${edges}) x`);
    // Primary key first, then the other indexes, then the foreign keys (validated in one pass each).
    for (const k of cons.filter((x) => x.contype !== "f")) await c.query(`ALTER TABLE graph_edges ADD CONSTRAINT "${k.conname}" ${k.def}`);
    for (const i of idx) await c.query(i.indexdef);
    for (const k of cons.filter((x) => x.contype === "f")) await c.query(`ALTER TABLE graph_edges ADD CONSTRAINT "${k.conname}" ${k.def}`);
    await c.query(`VACUUM ANALYZE graph_nodes`);
    await c.query(`VACUUM ANALYZE graph_edges`);
    const stats = (await c.query(`
      WITH d AS (SELECT id, count(*) AS deg FROM (SELECT from_id AS id FROM graph_edges UNION ALL SELECT to_id FROM graph_edges) x GROUP BY id)
      SELECT (SELECT count(*) FROM graph_nodes)::int AS nodes, (SELECT count(*) FROM graph_edges)::int AS edges,
             max(deg)::int AS max, percentile_disc(0.5) WITHIN GROUP (ORDER BY deg)::int AS p50,
             percentile_disc(0.99) WITHIN GROUP (ORDER BY deg)::int AS p99, avg(deg)::float8 AS mean FROM d`)).rows[0] as { nodes: number; edges: number; max: number; p50: number; p99: number; mean: number };
    return { nodes: stats.nodes, edges: stats.edges, maxDegree: stats.max, p50Degree: stats.p50, p99Degree: stats.p99, meanDegree: stats.mean, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await c.end();
  }
}

/** `count` random domain roots of the seeded graph (values for GET /v1/graph/domain/<value>). */
export async function graphRoots(url: string, count: number, seed = 0.17): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SELECT setseed(${seed})`);
    const r = await c.query(`SELECT value FROM graph_nodes WHERE type = 'domain' ORDER BY random() LIMIT ${count}`);
    return r.rows.map((x: { value: string }) => x.value);
  } finally {
    await c.end();
  }
}

/**
 * `count` audit rows for `accountId` in PostgreSQL, copied from up to 200 real records the API
 * wrote: per row its own id, seq, time, entity value (request and entity JSON rewritten), hashes;
 * the verdict, source outcomes and data versions JSON are the template's, byte for byte (rewriting
 * a 1–2 KB jsonb per row would double the seeding time; the export reads the verdict's level,
 * score, confidence, action and signals, not its id). The hash chain links each row to the
 * previous one's hash, but the hashes are not recomputed from the content: export does not verify
 * the chain. The checks table is switched to UNLOGGED for the load.
 */
export async function seedAuditRows(url: string, templateAccountIds: readonly string[], accountId: string, keyId: string, count: number, onProgress?: (done: number) => void): Promise<number> {
  const t0 = performance.now();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SET synchronous_commit = off`);
    // Bulk load without WAL (a million rows of JSON would be gigabytes of it): an unlogged table is
    // read exactly like a logged one, which is all the export does.
    await c.query(`ALTER TABLE checks SET UNLOGGED`);
    await c.query(`CREATE TEMP TABLE tpl AS
      SELECT (row_number() OVER (ORDER BY seq) - 1)::int AS k, * FROM checks
       WHERE account_id = ANY ($1::text[]) AND entity_type = 'domain' ORDER BY seq LIMIT 200`, [templateAccountIds]);
    const [{ n }] = (await c.query(`SELECT count(*)::int AS n FROM tpl`)).rows as [{ n: number }];
    if (n === 0) throw new Error("no audit records to copy: the screening runs wrote none");
    const chunk = 250_000;
    for (let from = 1; from <= count; from += chunk) {
      const to = Math.min(count, from + chunk - 1);
      await c.query(`
        INSERT INTO checks (id, account_id, seq, created_at, entity_type, entity_value, entity_id, risk_score, risk_level, confidence,
                            channel, actor_key_id, request, entity, verdict, source_outcomes, ruleset, data_versions, prev_hash, record_hash,
                            recommended_action, signal_codes, hash_version, hash_key_id)
        SELECT s.sid, $1, s.g, s.at, 'domain', s.v, 'domain:' || s.v, s.risk_score, s.risk_level, s.confidence,
               'api', $2, jsonb_build_object('entity_value', s.v),
               s.entity::jsonb || jsonb_build_object('value', s.v, 'input', s.v, 'id', 'domain:' || s.v),
               s.verdict, s.source_outcomes, s.ruleset, s.data_versions,
               CASE WHEN s.g = 1 THEN NULL ELSE md5('r' || (s.g - 1)) || md5('s' || (s.g - 1)) END,
               md5('r' || s.g) || md5('s' || s.g),
               s.recommended_action, s.signal_codes, s.hash_version, s.hash_key_id
          FROM (SELECT g, t.*, 'chk_seed' || lpad(g::text, 10, '0') AS sid, 'e' || g || '-' || t.entity_value AS v,
                       timestamptz '2026-01-01T00:00:00Z' + g * interval '10 ms' AS at
                  FROM generate_series(${from}, ${to}) g
                  JOIN tpl t ON t.k = g % ${n}) s`, [accountId, keyId]);
      onProgress?.(to);
    }
    await c.query(`INSERT INTO check_chain_heads (account_id, seq, last_hash) VALUES ($1, $2::int, md5('r' || $2::int) || md5('s' || $2::int))`, [accountId, count]);
    await c.query(`VACUUM ANALYZE checks`);
    // The export rows the database kept beside them (decision 0112), where the schema has them.
    if ((await c.query(`SELECT to_regclass($1) AS t`, ["check_exports"])).rows[0]?.t) await c.query(`VACUUM ANALYZE check_exports`);
    return (performance.now() - t0) / 1000;
  } finally {
    await c.end();
  }
}
