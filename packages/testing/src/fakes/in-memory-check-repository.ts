import {
  HISTORY_LIMIT, auditExportRowOf, clampInt, decodeCursor, encodeCursor, sealRecord, verifyRecords,
  type AuditExportRow, type AuditRecord, type ChainHead, type ChainVerification, type CheckFilters, type CheckRepository,
  type ExportOptions, type HistoryPage, type HistoryQuery, type NewAuditRecord, type Verdict,
} from "@svc/core";

/** Audit records in memory, one hash chain per account; also offers the tampering the contract suite needs. */
export class InMemoryCheckRepository implements CheckRepository {
  /** Per account, in chain order. */
  private readonly chains = new Map<string, AuditRecord[]>();
  private readonly heads = new Map<string, ChainHead>();
  private readonly ids = new Set<string>();

  async save(record: NewAuditRecord): Promise<AuditRecord> {
    return this.saveNow(record);
  }

  private saveNow(record: NewAuditRecord): AuditRecord {
    if (this.ids.has(record.id)) throw new Error(`duplicate check id ${record.id}`);
    const head = this.heads.get(record.account_id) ?? { count: 0, last_hash: null };
    const sealed = sealRecord(structuredClone(record), head.last_hash);
    this.ids.add(sealed.id);
    this.chain(record.account_id).push(sealed);
    this.heads.set(record.account_id, { count: head.count + 1, last_hash: sealed.record_hash });
    return structuredClone(sealed);
  }

  async saveMany(records: readonly NewAuditRecord[]): Promise<AuditRecord[]> {
    const ids = new Set(records.map((r) => r.id));
    if (ids.size !== records.length || records.some((r) => this.ids.has(r.id))) throw new Error("duplicate check id");
    if (new Set(records.map((r) => r.account_id)).size > 1) throw new Error("saveMany takes one account's records");
    // Synchronous: no other save can slip in between the group's records.
    return records.map((r) => this.saveNow(r));
  }

  async get(accountId: string, checkId: string): Promise<AuditRecord | null> {
    const r = this.chains.get(accountId)?.find((x) => x.id === checkId);
    return r ? structuredClone(r) : null;
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
    for (const r of this.matching(accountId, options).sort(order)) yield structuredClone(r);
  }

  async *exportSummaries(accountId: string, options: ExportOptions = {}): AsyncIterable<AuditExportRow> {
    for await (const r of this.exportRows(accountId, options)) yield auditExportRowOf(r);
  }

  async verifyChain(accountId: string): Promise<ChainVerification> {
    return verifyRecords(this.chains.get(accountId) ?? [], this.heads.get(accountId) ?? { count: 0, last_hash: null });
  }

  /** Direct edits behind the repository's back, as someone with database access could make. */
  readonly tamper = {
    setVerdict: async (accountId: string, checkId: string, change: (v: Verdict) => Verdict): Promise<void> => {
      const chain = this.chain(accountId);
      const i = chain.findIndex((r) => r.id === checkId);
      const r = chain[i];
      if (r) chain[i] = { ...r, verdict: change(r.verdict) };
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

  private chain(accountId: string): AuditRecord[] {
    let c = this.chains.get(accountId);
    if (!c) this.chains.set(accountId, (c = []));
    return c;
  }

  private matching(accountId: string, f: CheckFilters): AuditRecord[] {
    return (this.chains.get(accountId) ?? []).filter((r) => {
      const at = Date.parse(r.created_at);
      return (!f.type || r.entity.type === f.type)
        && (!f.risk_level || r.verdict.risk_level === f.risk_level)
        && (!f.since || at >= f.since.getTime())
        && (!f.until || at < f.until.getTime());
    });
  }
}

/** Oldest first: created_at, then id byte-wise (as the databases' `COLLATE "C"`). */
function order(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  const t = Date.parse(a.created_at) - Date.parse(b.created_at);
  if (t !== 0) return t;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
