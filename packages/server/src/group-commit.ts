import type { AuditRecord, CheckRepository, NewAuditRecord } from "@svc/core";
import { isDatabaseUnavailable } from "@svc/persistence";

interface Pending {
  readonly record: NewAuditRecord;
  resolve(r: AuditRecord): void;
  reject(e: unknown): void;
}

/**
 * Group commit for audit records. Checks of one account that arrive while that account's
 * previous group is being written are chained and committed together: one chain lock and one
 * commit for many checks, instead of a queue of single transactions on the account's chain
 * head. Every caller still gets its record only after it is committed.
 */
export class GroupCommitCheckRepository implements CheckRepository {
  private readonly queues = new Map<string, Pending[]>();
  private readonly busy = new Set<string>();

  constructor(private readonly inner: CheckRepository, private readonly maxGroup = 100) {}

  save(record: NewAuditRecord): Promise<AuditRecord> {
    return new Promise((resolve, reject) => {
      const q = this.queues.get(record.account_id) ?? [];
      q.push({ record, resolve, reject });
      this.queues.set(record.account_id, q);
      // Let the other requests of this event-loop turn join the group.
      if (!this.busy.has(record.account_id)) setImmediate(() => void this.flush(record.account_id));
    });
  }

  private async flush(accountId: string): Promise<void> {
    if (this.busy.has(accountId)) return;
    const q = this.queues.get(accountId);
    if (!q || q.length === 0) return;
    const group = q.splice(0, this.maxGroup);
    this.busy.add(accountId);
    try {
      const saved = await this.inner.saveMany(group.map((p) => p.record));
      group.forEach((p, i) => p.resolve(saved[i] as AuditRecord));
    } catch (e) {
      // The database is unreachable: every record of the group fails alike, at once (one by one,
      // each would wait out its own timeout behind the previous one).
      if (isDatabaseUnavailable(e)) {
        for (const p of group) p.reject(e);
        return;
      }
      // One bad record must not fail the others: fall back to saving them one by one.
      for (const p of group) await this.inner.save(p.record).then(p.resolve, p.reject);
    } finally {
      this.busy.delete(accountId);
      if ((this.queues.get(accountId)?.length ?? 0) > 0) void this.flush(accountId);
      else this.queues.delete(accountId);
    }
  }

  saveMany = (records: readonly NewAuditRecord[]) => this.inner.saveMany(records);
  get: CheckRepository["get"] = (a, id) => this.inner.get(a, id);
  byIdempotencyKey: CheckRepository["byIdempotencyKey"] = (a, k, since) => this.inner.byIdempotencyKey(a, k, since);
  history: CheckRepository["history"] = (a, q) => this.inner.history(a, q);
  exportRows: CheckRepository["exportRows"] = (a, o) => this.inner.exportRows(a, o);
  exportSummaries: CheckRepository["exportSummaries"] = (a, o) => this.inner.exportSummaries(a, o);
  exportCsv: NonNullable<CheckRepository["exportCsv"]> = (a, o) => this.inner.exportCsv?.(a, o) ?? null;
  verifyChain: CheckRepository["verifyChain"] = (a, o) => this.inner.verifyChain(a, o);
}
