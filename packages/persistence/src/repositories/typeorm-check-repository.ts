import { MoreThanOrEqual, type DataSource } from "typeorm";
import {
  EXPORT_BATCH, HISTORY_LIMIT, canonicalJsonOnce, chainVerifier, serialisedOnce, signalCodesOf, clampInt, decodeCursor, encodeCursor, sealChainHead, sealRecord,
  type AuditColumns, type AuditExportRow, type AuditMac, type AuditRecord, type ChainHead, type ChainVerification, type CheckFilters,
  type CheckRepository, type ExportOptions, type HistoryItem, type HistoryPage, type HistoryQuery, type NewAuditRecord, type VerifyOptions,
} from "@svc/core";
import { CheckEntity, SIGNALS_OF_VERDICT, type CheckRow } from "../entities/check.js";
import { iso } from "./sql.js";
import { copyExportCsv } from "./csv-export.js";
import { hasRawPool, rawQuery, rawSessions, rawTransaction, type RawSession } from "./raw-sql.js";

const VERIFY_BATCH = 1_000;
/** Accounts whose chain end a repository remembers (the least recently written is forgotten first). */
const REMEMBERED_HEADS = 10_000;
const CHECK_COLUMNS = [
  "id", "account_id", "seq", "created_at", "entity_type", "entity_value", "entity_id", "risk_score", "risk_level",
  "confidence", "channel", "actor_key_id", "request", "entity", "verdict", "source_outcomes", "ruleset",
  "data_versions", "signals", "prev_hash", "record_hash", "hash_version", "hash_key_id", "idempotency_key",
  "recommended_action", "signal_codes",
] as const satisfies readonly (keyof CheckRow)[];
const JSON_COLUMNS: ReadonlySet<string> = new Set(["request", "entity", "verdict", "source_outcomes", "data_versions", "signals"]);
const CLAIM_SQL = `INSERT INTO check_chain_heads (account_id, seq, last_hash) VALUES ($1, $2, NULL)
   ON CONFLICT (account_id) DO UPDATE SET seq = check_chain_heads.seq + $2
   RETURNING seq, last_hash`;
const TUPLE_WIDTH = CHECK_COLUMNS.length;
const SIGNALS_OF_VERDICT_JSON = JSON.stringify(SIGNALS_OF_VERDICT);
const appendTexts = new Map<number, string>();

/** One statement for a group of `n`: the rows, and the head moved to the last one ($1–$4: last hash, head MAC, its key id, account). */
function appendSql(n: number): string {
  let text = appendTexts.get(n);
  if (text === undefined) {
    const tuples: string[] = [];
    for (let k = 0; k < n; k++) {
      const base = 4 + k * TUPLE_WIDTH;
      tuples.push(`(${CHECK_COLUMNS.map((c, i) => `$${base + i + 1}${JSON_COLUMNS.has(c) ? "::json" : ""}`).join(", ")})`);
    }
    text = `WITH appended AS (INSERT INTO checks (${CHECK_COLUMNS.join(", ")}) VALUES ${tuples.join(", ")})
      UPDATE check_chain_heads SET last_hash = $1, mac = $2, mac_key_id = $3 WHERE account_id = $4`;
    appendTexts.set(n, text);
  }
  return text;
}

/** Column types, for the rows of a statement that inserts them from a VALUES list (no target to infer them from). */
const COLUMN_TYPE: Readonly<Record<string, string>> = { seq: "int", created_at: "timestamptz", risk_score: "int", hash_version: "int" };
const castOf = (c: string): string => (JSON_COLUMNS.has(c) ? "json" : (COLUMN_TYPE[c] ?? "text"));
const appendAfterTexts = new Map<number, string>();

/**
 * One statement, in autocommit, for a group of `n` whose place in the chain is already known: the
 * head moves from the seq and hash it was last seen at ($5, $6) to the last row's (re-sealed:
 * $1–$3, account $4), and the rows are inserted only if it did. A head another writer moved
 * meanwhile matches no row (PostgreSQL re-checks the condition on the newest version of a row it
 * waited for), so nothing is written and `moved` is 0; the head as the statement's snapshot saw
 * it comes back then (`seq`, `last_hash`: committed together with the rows up to it), where the
 * group may try again.
 */
function appendAfterSql(n: number): string {
  let text = appendAfterTexts.get(n);
  if (text === undefined) {
    const tuples: string[] = [];
    for (let k = 0; k < n; k++) {
      const base = 6 + k * TUPLE_WIDTH;
      tuples.push(`(${CHECK_COLUMNS.map((c, i) => `$${base + i + 1}::${castOf(c)}`).join(", ")})`);
    }
    text = `WITH head AS (
        UPDATE check_chain_heads SET seq = seq + ${n}, last_hash = $1, mac = $2, mac_key_id = $3
         WHERE account_id = $4 AND seq = $5::int AND last_hash IS NOT DISTINCT FROM $6::text
        RETURNING 1
      ), appended AS (
        INSERT INTO checks (${CHECK_COLUMNS.join(", ")})
        SELECT * FROM (VALUES ${tuples.join(", ")}) AS v WHERE EXISTS (SELECT 1 FROM head)
      )
      SELECT (SELECT count(*)::int FROM head) AS moved, h.seq, h.last_hash FROM (SELECT 1) one
        LEFT JOIN check_chain_heads h ON h.account_id = $4`;
    appendAfterTexts.set(n, text);
  }
  return text;
}

/**
 * What the `signals` column holds: the record's signals as JSON, or, when they are the verdict's
 * own (no allowlist hid any: nearly every check), SIGNALS_OF_VERDICT, and the record is rebuilt
 * with the verdict's on read (decision 0096). Records before the column hold NULL and have none.
 */
function signalsColumn(r: AuditRecord): string | null {
  if (!r.signals) return null;
  if (r.signals === r.verdict.signals) return SIGNALS_OF_VERDICT_JSON;
  const text = canonicalJsonOnce(r.signals);
  return text === canonicalJsonOnce(r.verdict.signals) ? SIGNALS_OF_VERDICT_JSON : text;
}

/** The statement parameters of one row, in CHECK_COLUMNS order. */
function pushRow(params: unknown[], r: AuditRecord, seq: number, idempotencyKey: string | undefined): void {
  const v = r.verdict;
  params.push(
    r.id, r.account_id, seq, r.created_at, r.entity.type, r.entity.value, r.entity.id, v.risk_score, v.risk_level,
    v.confidence, r.actor.channel, r.actor.key_id, JSON.stringify(r.request), JSON.stringify(r.entity), canonicalJsonOnce(v),
    JSON.stringify(r.source_outcomes), r.ruleset, serialisedOnce(r.data_versions) ?? JSON.stringify(r.data_versions), signalsColumn(r),
    r.prev_hash, r.record_hash, r.hash_version, r.hash_key_id, idempotencyKey ?? null, v.recommended_action, signalCodesOf(v),
  );
}

/** Records are sealed with the audit keyring's current key (an HMAC the database cannot compute). */
export class TypeOrmCheckRepository implements CheckRepository {
  private readonly session: () => Promise<RawSession>;
  /** Where this process last left each account's chain (after its own commits): the next group's place, unless another writer moved it since. */
  private readonly heads = new Map<string, { readonly seq: number; readonly last_hash: string | null }>();

  private readonly statement: ReturnType<typeof rawQuery>;

  constructor(private readonly ds: DataSource, private readonly mac: AuditMac) {
    this.session = rawSessions(ds);
    this.statement = rawQuery(ds);
  }

  save(record: NewAuditRecord): Promise<AuditRecord> {
    return this.saveMany([record]).then((s) => s[0] as AuditRecord);
  }

  /**
   * The write path of every check (the API's group commit hands it a group of one account's
   * records): one transaction of three statements on a raw session of the DataSource's pool,
   * not TypeORM — claim `n` places in the chain (the head row stays locked until commit, so
   * concurrent writers for one account, from any process, queue here and form one chain),
   * then one multi-row INSERT of the sealed records that also moves and re-seals the head.
   */
  async saveMany(records: readonly NewAuditRecord[]): Promise<AuditRecord[]> {
    const first = records[0];
    if (!first) return [];
    const account = first.account_id;
    if (records.some((r) => r.account_id !== account)) throw new Error("saveMany takes one account's records");
    const n = records.length;
    /** Seals the group after `head` (seq and hash of the record before it) into `params` from index `offset`. */
    const seal = (head: { seq: number; last_hash: string | null }, params: unknown[], offset: number): { sealed: AuditRecord[]; last: string | null } => {
      let prev = head.last_hash;
      const sealed: AuditRecord[] = [];
      params.length = offset;
      records.forEach((r, k) => {
        const s = sealRecord(r, prev, this.mac);
        prev = s.record_hash;
        sealed.push(s);
        pushRow(params, s, head.seq + k + 1, r.idempotency_key);
      });
      const h = sealChainHead({ account_id: account, count: head.seq + n, last_hash: prev }, this.mac);
      params[0] = prev;
      params[1] = h.mac;
      params[2] = h.mac_key_id;
      return { sealed, last: prev };
    };
    const work = async (q: Pick<RawSession, "query">): Promise<{ sealed: AuditRecord[]; seq: number; last: string | null }> => {
      const [claimed] = await q.query<{ seq: number; last_hash: string | null }>("svc_chain_claim", CLAIM_SQL, [account, n]);
      if (!claimed) throw new Error("chain head upsert returned no row");
      const before = claimed.seq - n;
      // A fresh head row starts at seq = n, and its previous hash is null either way.
      const params: unknown[] = [null, null, null, account];
      const { sealed, last } = seal({ seq: before, last_hash: before === 0 ? null : claimed.last_hash }, params, 4);
      await q.query(`svc_checks_append_${n}`, appendSql(n), params);
      return { sealed, seq: claimed.seq, last };
    };
    if (!hasRawPool(this.ds)) {
      // Inside a caller's transaction (the worker's job): the same statements on its manager.
      return (await this.ds.transaction((m) => work({ query: async <R>(_name: string, text: string, values: readonly unknown[]) => (await m.query(text, [...values])) as R[] }))).sealed;
    }
    // Where this process left the chain: one statement in autocommit (no BEGIN, claim, COMMIT
    // round trips), which writes nothing if another writer (a worker, another API) moved the head
    // since; it then says where it saw the head, and the group tries once more from there
    // before taking the lock.
    let known = this.heads.get(account);
    this.heads.delete(account);
    for (let attempt = 0; known && attempt < 2; attempt++) {
      const params: unknown[] = [null, null, null, account, known.seq, known.last_hash];
      const { sealed, last } = seal(known, params, 6);
      const [r] = await this.statement<{ moved: number; seq: number | null; last_hash: string | null }>(`svc_checks_append_after_${n}`, appendAfterSql(n), params);
      if (r?.moved === 1) {
        this.remember(account, known.seq + n, last);
        return sealed;
      }
      known = r && r.seq !== null && (r.seq !== known.seq || r.last_hash !== known.last_hash) ? { seq: r.seq, last_hash: r.last_hash } : undefined;
    }
    // The first group of an account in this process, or the head moved: claim its place under the head row's lock.
    const done = await rawTransaction(this.session, work);
    this.remember(account, done.seq, done.last);
    return done.sealed;
  }

  private remember(account: string, seq: number, lastHash: string | null): void {
    // Bounded: an account not written for a while is claimed under the lock again, nothing more.
    if (this.heads.size >= REMEMBERED_HEADS) this.heads.delete(this.heads.keys().next().value as string);
    this.heads.set(account, { seq, last_hash: lastHash });
  }

  /**
   * Seals the heads of chains last written before keyed hashing (at start-up). This says only
   * where each chain ended when the key first saw it, nothing about the records before: those
   * keep their unkeyed hashes and are verified (and reported as legacy) by that scheme.
   */
  async sealUnsealedHeads(): Promise<number> {
    const heads = (await this.ds.manager.query(`SELECT account_id, seq, last_hash FROM check_chain_heads WHERE mac IS NULL`)) as { account_id: string; seq: number; last_hash: string | null }[];
    let sealed = 0;
    for (const h of heads) {
      const s = sealChainHead({ account_id: h.account_id, count: h.seq, last_hash: h.last_hash }, this.mac);
      // Only if no save moved the head meanwhile (a save seals it itself).
      const [r] = (await this.ds.manager.query(
        `WITH u AS (UPDATE check_chain_heads SET mac = $3, mac_key_id = $4 WHERE account_id = $1 AND seq = $2 AND mac IS NULL RETURNING 1)
         SELECT count(*)::int AS n FROM u`,
        [h.account_id, h.seq, s.mac, s.mac_key_id],
      )) as { n: number }[];
      sealed += r?.n ?? 0;
    }
    return sealed;
  }

  async byIdempotencyKey(accountId: string, key: string, since: Date): Promise<AuditRecord[]> {
    const rows = await this.ds.getRepository(CheckEntity).find({
      where: { account_id: accountId, idempotency_key: key, created_at: MoreThanOrEqual(since) },
      order: { created_at: "ASC", id: "ASC" },
    });
    return rows.map(toRecord);
  }

  async get(accountId: string, checkId: string): Promise<AuditRecord | null> {
    const row = await this.ds.getRepository(CheckEntity).findOneBy({ id: checkId, account_id: accountId });
    return row ? toRecord(row) : null;
  }

  async history(accountId: string, query: HistoryQuery = {}): Promise<HistoryPage> {
    const limit = clampInt(query.limit, 1, HISTORY_LIMIT.max, HISTORY_LIMIT.default);
    const where = new Where(accountId).filters(query);
    if (query.cursor) {
      const at = decodeCursor(query.cursor);
      where.add(`(created_at, id) < ($?::timestamptz, $?)`, at.created_at, at.id);
    }
    // The page is chosen first and only its rows' verdicts are read (a verdict is stored out of
    // line, TOASTed): while the table's statistics are behind its growth (a new database, a burst
    // of checks), the planner may gather every row of the account and sort them, and reading
    // each one's verdict there cost milliseconds per thousand checks.
    const rows = (await this.ds.manager.query(
      `SELECT id, entity_type, entity_value, entity_id, risk_score, risk_level, confidence, channel, created_at,
              verdict->>'evaluated_at' AS evaluated_at FROM (
         SELECT id, entity_type, entity_value, entity_id, risk_score, risk_level, confidence, channel, created_at, verdict
           FROM checks WHERE ${where.sql()}
          ORDER BY created_at DESC, id DESC
          LIMIT ${limit + 1}
       ) page ORDER BY created_at DESC, id DESC`,
      where.params,
    )) as HistoryRow[];
    const items = rows.slice(0, limit).map(toHistoryItem);
    const last = items.at(-1);
    return { items, next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  async *exportRows(accountId: string, options: ExportOptions = {}): AsyncIterable<AuditRecord> {
    const batch = clampInt(options.batchSize, 1, EXPORT_BATCH.max, EXPORT_BATCH.default);
    let after: { created_at: Date; id: string } | null = null;
    for (;;) {
      const where = new Where(accountId).filters(options);
      if (after) where.add(`(created_at, id) > ($?::timestamptz, $?)`, after.created_at, after.id);
      // One short query per batch: no session or cursor is held while the consumer writes.
      const rows = (await this.ds.manager.query(
        `SELECT * FROM checks WHERE ${where.sql()} ORDER BY created_at ASC, id ASC LIMIT ${batch}`,
        where.params,
      )) as CheckRow[];
      for (const row of rows) yield toRecord(row);
      const last = rows.at(-1);
      if (rows.length < batch || !last) return;
      after = { created_at: last.created_at, id: last.id };
    }
  }

  async *exportSummaries(accountId: string, options: ExportOptions = {}): AsyncIterable<AuditExportRow> {
    const batch = clampInt(options.batchSize, 1, EXPORT_BATCH.max, EXPORT_BATCH.default);
    type Row = Omit<AuditExportRow, "key_id" | "created_at"> & { created_iso: string; actor_key_id: string | null };
    const read = async (after: { created_at: string; id: string } | null): Promise<Row[]> => {
      const where = new Where(accountId).filters(options);
      if (after) where.add(`(created_at, id) > ($?::timestamptz, $?)`, after.created_at, after.id);
      // Only the exported columns, the time already as ISO 8601 text (millisecond precision, as
      // stored); the action and signal codes are columns written at insert, so the verdict's
      // JSON is never read (nor detoasted) and no record crosses the connection.
      return (await this.ds.manager.query(
        `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_iso,
                entity_type, entity_value, risk_score, risk_level, confidence,
                recommended_action, signal_codes AS signals,
                ruleset, channel, actor_key_id, prev_hash, record_hash
           FROM checks WHERE ${where.sql()} ORDER BY checks.created_at ASC, checks.id ASC LIMIT ${batch}`,
        where.params,
      )) as Row[];
    };
    // The next batch is read while this one is consumed, so the database and the consumer work
    // side by side.
    let pending = read(null);
    for (;;) {
      const rows = await pending;
      const last = rows.at(-1);
      const more = rows.length === batch && last !== undefined;
      if (more) {
        pending = read({ created_at: last.created_iso, id: last.id });
        pending.catch(() => {}); // surfaced by the await above if the consumer gets that far
      }
      for (const { actor_key_id, created_iso, ...r } of rows) yield { ...r, created_at: created_iso, key_id: actor_key_id };
      if (!more) return;
    }
  }

  /** On PostgreSQL, the CSV lines the database keeps for each check (csv-export.ts); null on PGlite, which formats `exportSummaries` instead. */
  exportCsv(accountId: string, filters: CheckFilters = {}): AsyncIterable<Uint8Array> | null {
    return copyExportCsv(this.ds, accountId, filters);
  }

  async verifyChain(accountId: string, options: VerifyOptions = {}): Promise<ChainVerification> {
    const q = this.ds.manager;
    // The head first: every record up to its seq is committed, so saves running meanwhile
    // (which only add records after it) cannot make an intact chain look broken.
    const [headRow] = (await q.query(
      `SELECT seq, last_hash, mac, mac_key_id FROM check_chain_heads WHERE account_id = $1`,
      [accountId],
    )) as { seq: number; last_hash: string | null; mac: string | null; mac_key_id: string | null }[];
    // No head but records: the head was removed, so walk every record and let the empty head fail.
    const head: ChainHead = headRow
      ? { account_id: accountId, count: headRow.seq, last_hash: headRow.last_hash, mac: headRow.mac, mac_key_id: headRow.mac_key_id }
      : { account_id: accountId, count: 0, last_hash: null, mac: null, mac_key_id: null };
    const end = headRow ? headRow.seq : 2_147_483_647; // seq is an integer column
    const bound = async (sql: string, at: Date): Promise<number | null> =>
      ((await q.query(sql, [accountId, at, end])) as { seq: number | null }[])[0]?.seq ?? null;
    const from = options.since ? await bound(`SELECT min(seq) AS seq FROM checks WHERE account_id = $1 AND created_at >= $2 AND seq <= $3`, options.since) : 1;
    const to = options.until ? await bound(`SELECT max(seq) AS seq FROM checks WHERE account_id = $1 AND created_at < $2 AND seq <= $3`, options.until) : end;
    if (from === null || to === null || to < from) return { ok: true, checked: 0, legacy: 0 };
    // A stretch starting later in the chain is anchored on the record before it.
    let start = { prev_hash: null as string | null, keyed: false };
    if (from > 1) {
      const [before] = (await q.query(`SELECT record_hash, hash_version FROM checks WHERE account_id = $1 AND seq = $2`, [accountId, from - 1])) as { record_hash: string; hash_version: number }[];
      start = { prev_hash: before?.record_hash ?? null, keyed: before?.hash_version === 2 };
    }
    const verifier = chainVerifier(this.mac, start);
    let next = from;
    let read = 0;
    for (;;) {
      // Each record with its export row (decision 0112), null when it has none, and the row its
      // columns make.
      const rows = (await q.query(
        `SELECT c.*, to_json(e) AS exported, (SELECT to_json(x) FROM check_export_of(c) x) AS expected FROM checks c
           LEFT JOIN check_exports e ON e.account_id = c.account_id AND e.created_at = c.created_at AND e.id = c.id
          WHERE c.account_id = $1 AND c.seq >= $2 AND c.seq <= $3 ORDER BY c.seq LIMIT ${VERIFY_BATCH}`,
        [accountId, next, to],
      )) as (CheckRow & { exported: ExportRow | null; expected: ExportRow })[];
      read += rows.length;
      for (const row of rows) {
        const record = toRecord(row);
        if (!verifier.push(record, columnsOf(row))) return verifier.result();
        // The export's columns are not part of the keyed hash (they follow from the sealed record): compare them with it.
        if (row.recommended_action !== record.verdict.recommended_action || row.signal_codes !== signalCodesOf(record.verdict)) {
          return { ...verifier.result(), ok: false, first_bad: { id: row.id, reason: "hash_mismatch", detail: "the export columns (recommended_action, signal_codes) differ from the sealed verdict" } };
        }
        const differs = exportDifference(row.expected, row.exported);
        if (differs) return { ...verifier.result(), ok: false, first_bad: { id: row.id, reason: "hash_mismatch", detail: differs } };
      }
      const last = rows.at(-1);
      if (rows.length < VERIFY_BATCH || !last) break;
      next = last.seq + 1;
    }
    // The head speaks for the whole chain: it is checked when the walk covered all of it (an
    // account that never had a check has neither head nor records).
    const result = verifier.result(from === 1 && to === end && (headRow || read > 0) ? head : null);
    if (!result.ok) return result;
    // An export row of no record in the verified time (an export would show a check that was
    // never made), looked for in blocks along the export's key, as the records are read.
    let extra: { id: string } | undefined;
    for (let after: { at: string; id: string } | null = null; !extra;) {
      const block = new Where(accountId).filters({ since: options.since, until: options.until });
      if (after) block.add(`created_at >= $?::timestamptz AND (created_at, id) > ($?::timestamptz, $?)`, after.at, after.at, after.id);
      const rows = (await q.query(
        `SELECT e.id, e.created_at::text AS at, NOT EXISTS (
                  SELECT 1 FROM checks c WHERE c.account_id = e.account_id AND c.created_at = e.created_at AND c.id = e.id) AS stray
           FROM check_exports e WHERE ${block.sql()} ORDER BY e.created_at, e.id LIMIT ${VERIFY_BATCH}`,
        block.params,
      )) as { id: string; at: string; stray: boolean }[];
      extra = rows.find((r) => r.stray);
      const last = rows.at(-1);
      if (rows.length < VERIFY_BATCH || !last) break;
      after = { at: last.at, id: last.id };
    }
    return extra ? { ...result, ok: false, first_bad: { id: extra.id, reason: "chain_broken", detail: "an export row has no audit record: it was added to the export's table" } } : result;
  }
}

/** A record's row in `check_exports` (its export cells), as `to_json` gives it. */
type ExportRow = Record<string, string | number | null>;

/** Why a record's export row does not show it (missing, or cells that differ from those its columns make), or null when it does. */
function exportDifference(expected: ExportRow, exported: ExportRow | null): string | null {
  if (!exported) return "the record has no export row: an export would leave it out";
  const differ = Object.keys(expected).filter((c) => exported[c] !== expected[c]);
  return differ.length > 0 ? `the export row differs from the record in ${differ.join(", ")}` : null;
}

/** The listed columns as the table holds them (they may have been edited apart from the record). */
function columnsOf(row: CheckRow): AuditColumns {
  return {
    entity_type: row.entity_type, entity_value: row.entity_value, entity_id: row.entity_id, risk_score: row.risk_score,
    risk_level: row.risk_level, confidence: row.confidence, channel: row.channel, actor_key_id: row.actor_key_id,
  };
}

interface HistoryRow {
  id: string;
  entity_type: HistoryItem["entity"]["type"];
  entity_value: string;
  entity_id: string;
  risk_score: number;
  risk_level: HistoryItem["risk_level"];
  confidence: HistoryItem["confidence"];
  channel: HistoryItem["channel"];
  created_at: Date;
  evaluated_at: string | null;
}

/** A WHERE clause with numbered parameters; `$?` placeholders are numbered as they are added. */
class Where {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  constructor(accountId: string) {
    this.add(`account_id = $?`, accountId);
  }

  add(clause: string, ...values: unknown[]): this {
    let i = 0;
    this.parts.push(clause.replaceAll("$?", () => `$${this.params.length + ++i}`));
    this.params.push(...values);
    return this;
  }

  filters(f: CheckFilters): this {
    if (f.type) this.add(`entity_type = $?`, f.type);
    if (f.risk_level) this.add(`risk_level = $?`, f.risk_level);
    if (f.since) this.add(`created_at >= $?::timestamptz`, f.since);
    if (f.until) this.add(`created_at < $?::timestamptz`, f.until);
    return this;
  }

  sql(): string {
    return this.parts.join(" AND ");
  }
}

function toRecord(row: CheckRow): AuditRecord {
  return {
    id: row.id,
    account_id: row.account_id,
    created_at: iso(row.created_at),
    request: row.request,
    entity: row.entity,
    verdict: row.verdict,
    source_outcomes: row.source_outcomes,
    ruleset: row.ruleset,
    data_versions: row.data_versions,
    ...(row.signals === SIGNALS_OF_VERDICT ? { signals: row.verdict.signals } : row.signals ? { signals: row.signals } : {}),
    actor: { key_id: row.actor_key_id, channel: row.channel },
    prev_hash: row.prev_hash,
    record_hash: row.record_hash,
    hash_version: row.hash_version,
    hash_key_id: row.hash_key_id,
  };
}

function toHistoryItem(row: HistoryRow): HistoryItem {
  const created = iso(row.created_at);
  return {
    id: row.id,
    entity: { type: row.entity_type, value: row.entity_value, id: row.entity_id },
    risk_score: row.risk_score,
    risk_level: row.risk_level,
    confidence: row.confidence,
    channel: row.channel,
    evaluated_at: row.evaluated_at ?? created,
    created_at: created,
  };
}
