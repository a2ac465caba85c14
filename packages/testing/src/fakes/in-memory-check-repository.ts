import {
  HISTORY_LIMIT, auditColumnsOf, auditExportRowOf, chainVerifier, clampInt, decodeCursor, encodeCursor, sealChainHead, sealRecord,
  type AuditColumns, type AuditExportRow, type AuditMac, type AuditRecord, type ChainHead, type ChainVerification, type CheckFilters,
  type CheckRepository, type ExportOptions, type HistoryPage, type HistoryQuery, type NewAuditRecord, type Verdict, type VerifyOptions,
} from "@svc/core";
import { testAuditMac } from "../audit-mac.js";

type Stored = AuditRecord & { columns?: AuditColumns };

/** Audit records in memory, one hash chain per account; also offers the tampering the contract suite needs. */
export class InMemoryCheckRepository implements CheckRepository {
  /** Per account, in chain order. */
  private readonly chains = new Map<string, Stored[]>();
  private readonly heads = new Map<string, ChainHead>();
  private readonly ids = new Set<string>();
  /** Check id → the Idempotency-Key it was saved with. */
  private readonly idempotencyKeys = new Map<string, string>();

  constructor(private readonly mac: AuditMac = testAuditMac()) {}

  async save(record: NewAuditRecord): Promise<AuditRecord> {
    return this.saveNow(record);
  }

  private saveNow(record: NewAuditRecord): AuditRecord {
    if (this.ids.has(record.id)) throw new Error(`duplicate check id ${record.id}`);
    const head = this.heads.get(record.account_id);
    const sealed = sealRecord(structuredClone(record), head?.last_hash ?? null, this.mac);
    this.ids.add(sealed.id);
    if (record.idempotency_key) this.idempotencyKeys.set(sealed.id, record.idempotency_key);
    this.chain(record.account_id).push(sealed);
    this.heads.set(record.account_id, sealChainHead({ account_id: record.account_id, count: (head?.count ?? 0) + 1, last_hash: sealed.record_hash }, this.mac));
    return structuredClone(sealed);
  }

  async saveMany(records: readonly NewAuditRecord[]): Promise<AuditRecord[]> {
    const ids = new Set(records.map((r) => r.id));
    if (ids.size !== records.length || records.some((r) => this.ids.has(r.id))) throw new Error("duplicate check id");
    if (new Set(records.map((r) => r.account_id)).size > 1) throw new Error("saveMany takes one account's records");
    // Synchronous: no other save can slip in between the group's records.
    return records.map((r) => this.saveNow(r));
  }

  async byIdempotencyKey(accountId: string, key: string, since: Date): Promise<AuditRecord[]> {
    return (this.chains.get(accountId) ?? [])
      .filter((r) => this.idempotencyKeys.get(r.id) === key && Date.parse(r.created_at) >= since.getTime())
      .sort(order)
      .map(plain);
  }

  async get(accountId: string, checkId: string): Promise<AuditRecord | null> {
    const r = this.chains.get(accountId)?.find((x) => x.id === checkId);
    return r ? plain(r) : null;
  }

  async history(accountId: string, query: HistoryQuery = {}): Promise<HistoryPage> {
    const limit = clampInt(query.limit, 1, HISTORY_LIMIT.max, HISTORY_LIMIT.default);
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = this.matching(accountId, query)
      .sort((a, b) => -order(a, b))
      .filter((r) => !after || order(r, after) < 0);
    const items = rows.slice(0, limit).map((r) => ({
      id: r.id,
      entity: { type: r.entity.type, value: r.entity.value, id: r.entity.id },
      risk_score: r.verdict.risk_score,
      risk_level: r.verdict.risk_level,
      confidence: r.verdict.confidence,
      channel: r.actor.channel,
      evaluated_at: r.verdict.evaluated_at,
      created_at: r.created_at,
    }));
    const last = items.at(-1);
    return { items, next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  async *exportRows(accountId: string, options: ExportOptions = {}): AsyncIterable<AuditRecord> {
    for (const r of this.matching(accountId, options).sort(order)) yield plain(r);
  }

  async *exportSummaries(accountId: string, options: ExportOptions = {}): AsyncIterable<AuditExportRow> {
    for await (const r of this.exportRows(accountId, options)) yield auditExportRowOf(r);
  }

  async verifyChain(accountId: string, options: VerifyOptions = {}): Promise<ChainVerification> {
    const chain = this.chains.get(accountId) ?? [];
    const head = this.heads.get(accountId) ?? (chain.length > 0 ? { account_id: accountId, count: 0, last_hash: null, mac: null, mac_key_id: null } : null);
    const from = options.since ? chain.findIndex((r) => Date.parse(r.created_at) >= (options.since as Date).getTime()) : 0;
    const until = options.until?.getTime();
    const to = until === undefined ? chain.length - 1 : chain.findLastIndex((r) => Date.parse(r.created_at) < until);
    if (from < 0 || to < from) return { ok: true, checked: 0, legacy: 0 };
    const before = chain[from - 1];
    const v = chainVerifier(this.mac, { prev_hash: before?.record_hash ?? null, keyed: before?.hash_version === 2 });
    for (const r of chain.slice(from, to + 1)) if (!v.push(plain(r), r.columns ?? auditColumnsOf(r))) break;
    return v.result(from === 0 && to === chain.length - 1 ? head : null);
  }

  /** Direct edits behind the repository's back, as someone with database access could make. */
  readonly tamper = {
    setVerdict: async (accountId: string, checkId: string, change: (v: Verdict) => Verdict): Promise<void> => {
      const chain = this.chain(accountId);
      const i = chain.findIndex((r) => r.id === checkId);
      const r = chain[i];
      if (r) chain[i] = { ...r, verdict: change(r.verdict) };
    },
    setColumns: async (accountId: string, checkId: string, change: ColumnEdit): Promise<void> => {
      const chain = this.chain(accountId);
      const i = chain.findIndex((r) => r.id === checkId);
      const r = chain[i];
      if (!r) return;
      const { created_at, ...columns } = change;
      chain[i] = { ...r, ...(created_at ? { created_at } : {}), columns: { ...(r.columns ?? auditColumnsOf(r)), ...columns } };
    },
    rewrite: async (accountId: string, checkId: string, record: AuditRecord): Promise<void> => {
      const chain = this.chain(accountId);
      const i = chain.findIndex((r) => r.id === checkId);
      if (i >= 0) chain[i] = structuredClone(record);
    },
    setHead: async (accountId: string, count: number, lastHash: string | null): Promise<void> => {
      const head = this.heads.get(accountId);
      if (head) this.heads.set(accountId, { ...head, count, last_hash: lastHash });
    },
    remove: async (accountId: string, checkId: string): Promise<void> => {
      const chain = this.chain(accountId);
      const i = chain.findIndex((r) => r.id === checkId);
      if (i >= 0) chain.splice(i, 1);
    },
    swap: async (accountId: string, a: string, b: string): Promise<void> => {
      const chain = this.chain(accountId);
      const i = chain.findIndex((r) => r.id === a);
      const j = chain.findIndex((r) => r.id === b);
      const ra = chain[i];
      const rb = chain[j];
      if (ra && rb) [chain[i], chain[j]] = [rb, ra];
    },
  };

  private chain(accountId: string): Stored[] {
    let c = this.chains.get(accountId);
    if (!c) this.chains.set(accountId, (c = []));
    return c;
  }

  private matching(accountId: string, f: CheckFilters): Stored[] {
    return (this.chains.get(accountId) ?? []).filter((r) => {
      const at = Date.parse(r.created_at);
      return (!f.type || r.entity.type === f.type)
        && (!f.risk_level || r.verdict.risk_level === f.risk_level)
        && (!f.since || at >= f.since.getTime())
        && (!f.until || at < f.until.getTime());
    });
  }
}

type ColumnEdit = Partial<Omit<AuditColumns, "risk_score"> & { risk_score: number; created_at: string }>;

/** The record without the columns a tamper may have set apart from it. */
function plain(r: Stored): AuditRecord {
  const { columns: _columns, ...record } = r;
  return structuredClone(record);
}

/** Oldest first: created_at, then id byte-wise (as the databases' `COLLATE "C"`). */
function order(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  const t = Date.parse(a.created_at) - Date.parse(b.created_at);
  if (t !== 0) return t;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
