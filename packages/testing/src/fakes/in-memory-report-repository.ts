import {
  CONFIRMED_REPORT_TRUST, REPORT_LIST_LIMIT, clampInt, decodeCursor, earnedReporterTrust, encodeCursor, reportWeight,
  type FiledReport, type ModerationDecision, type ModerationStatus, type NewReport, type ReportEvidence, type ReportListQuery, type ReportPage,
  type ReportRecord, type ReportRepository,
} from "@svc/core";

const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class InMemoryReportRepository implements ReportRepository {
  private readonly reports = new Map<string, ReportRecord>();
  private readonly trust = new Map<string, number>();

  async file(report: NewReport, now: Date): Promise<FiledReport> {
    const earlier = [...this.reports.values()].find((r) => r.entity.id === report.entity.id && r.reporter_id === report.reporter_id);
    const at = now.toISOString();
    const id = earlier?.id ?? report.id ?? `rep_${crypto.randomUUID().replaceAll("-", "")}`;
    if (!earlier && this.reports.has(id)) throw new Error(`duplicate report id ${id}`);
    const record: ReportRecord = {
      id,
      reporter_id: report.reporter_id,
      entity: { type: report.entity.type, value: report.entity.value, id: report.entity.id },
      category: report.category,
      description: report.description ?? null,
      evidence_urls: [...(report.evidence_urls ?? [])],
      related_entities: [...(report.related_entities ?? [])],
      check_id: report.check_id ?? null,
      feedback: report.feedback ?? null,
      moderation_status: "unverified",
      moderated_at: null,
      moderated_by: null,
      moderation_reason: null,
      created_at: earlier?.created_at ?? at,
      updated_at: at,
    };
    this.reports.set(id, record);
    return {
      report: structuredClone(record),
      created: !earlier,
      previous: earlier ? { moderation_status: earlier.moderation_status, related_entities: [...earlier.related_entities] } : null,
    };
  }

  async get(reportId: string): Promise<ReportRecord | null> {
    const r = this.reports.get(reportId);
    return r ? structuredClone(r) : null;
  }

  async setReporterTrust(reporterId: string, trust: number): Promise<void> {
    if (!(trust >= 0 && trust <= 1)) throw new RangeError(`reporter trust must be within 0..1, got ${trust}`);
    this.trust.set(reporterId, trust);
  }

  async moderate(reportId: string, d: ModerationDecision): Promise<{ report: ReportRecord; previous_status: ModerationStatus } | null> {
    const r = this.reports.get(reportId);
    if (!r) return null;
    if (r.moderation_status === d.status && r.moderation_reason === d.reason && r.moderated_at !== null) {
      return { report: structuredClone(r), previous_status: r.moderation_status };
    }
    const next: ReportRecord = { ...r, moderation_status: d.status, moderated_at: d.at.toISOString(), moderated_by: d.by, moderation_reason: d.reason };
    this.reports.set(reportId, next);
    return { report: structuredClone(next), previous_status: r.moderation_status };
  }

  async list(query: ReportListQuery): Promise<ReportPage> {
    const limit = clampInt(query.limit, 1, REPORT_LIST_LIMIT.max, REPORT_LIST_LIMIT.default);
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = [...this.reports.values()]
      .filter((r) => (!query.status || r.moderation_status === query.status) && (!query.entity_id || r.entity.id === query.entity_id))
      .filter((r) => !after || r.created_at > after.created_at || (r.created_at === after.created_at && byBytes(r.id, after.id) > 0))
      .sort((a, b) => byBytes(a.created_at, b.created_at) || byBytes(a.id, b.id));
    const items = rows.slice(0, limit).map((r) => structuredClone(r));
    const last = items[items.length - 1];
    return { items, next_cursor: rows.length > limit && last ? encodeCursor({ created_at: last.created_at, id: last.id }) : null };
  }

  async confirmedRelated(entityId: string): Promise<readonly string[]> {
    const ids = [...this.reports.values()].filter((r) => r.entity.id === entityId && r.moderation_status === "confirmed").flatMap((r) => r.related_entities);
    return [...new Set(ids)].sort(byBytes);
  }

  /** What a report weighs before decay: see ReportRepository. */
  private trustOf(r: ReportRecord): number {
    if (r.moderation_status === "rejected") return 0;
    if (r.moderation_status === "confirmed") return CONFIRMED_REPORT_TRUST;
    const set = this.trust.get(r.reporter_id);
    if (set !== undefined) return set;
    const mine = [...this.reports.values()].filter((x) => x.reporter_id === r.reporter_id);
    return earnedReporterTrust(mine.filter((x) => x.moderation_status === "confirmed").length, mine.filter((x) => x.moderation_status === "rejected").length);
  }

  async forEntity(entityId: string, now: Date): Promise<ReportEvidence | null> {
    const counted = [...this.reports.values()]
      .filter((r) => r.entity.id === entityId)
      .map((r) => ({ r, trust: this.trustOf(r) }))
      .filter((c) => c.trust > 0);
    if (counted.length === 0) return null;
    const abuse = counted.filter((c) => c.r.feedback !== "false_positive");
    const newest = Math.max(...counted.map((c) => Date.parse(c.r.updated_at)));
    const version = Math.max(...counted.map((c) => Date.parse(c.r.moderation_status === "confirmed" ? (c.r.moderated_at as string) : c.r.updated_at)));
    return {
      reporters: new Set(counted.map((c) => c.r.reporter_id)).size,
      weighted: abuse.reduce((sum, c) => sum + reportWeight(c.trust, new Date(c.r.updated_at), now), 0),
      false_positive_reports: counted.length - abuse.length,
      categories: [...new Set(abuse.map((c) => c.r.category))].sort(),
      newest_at: new Date(newest).toISOString(),
      version: new Date(version).toISOString(),
    };
  }
}
