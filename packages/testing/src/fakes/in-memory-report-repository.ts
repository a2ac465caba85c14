import {
  DEFAULT_REPORTER_TRUST, reportWeight,
  type ModerationStatus, type NewReport, type ReportEvidence, type ReportRecord, type ReportRepository,
} from "@svc/core";

export class InMemoryReportRepository implements ReportRepository {
  private readonly reports = new Map<string, ReportRecord>();
  private readonly trust = new Map<string, number>();

  constructor(private readonly defaultTrust: number = DEFAULT_REPORTER_TRUST) {}

  async file(report: NewReport, now: Date): Promise<{ report: ReportRecord; created: boolean }> {
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
      created_at: earlier?.created_at ?? at,
      updated_at: at,
    };
    this.reports.set(id, record);
    return { report: structuredClone(record), created: !earlier };
  }

  async get(reportId: string): Promise<ReportRecord | null> {
    const r = this.reports.get(reportId);
    return r ? structuredClone(r) : null;
  }

  async setReporterTrust(reporterId: string, trust: number): Promise<void> {
    if (!(trust >= 0 && trust <= 1)) throw new RangeError(`reporter trust must be within 0..1, got ${trust}`);
    this.trust.set(reporterId, trust);
  }

  async moderate(reportId: string, status: ModerationStatus): Promise<boolean> {
    const r = this.reports.get(reportId);
    if (!r) return false;
    this.reports.set(reportId, { ...r, moderation_status: status });
    return true;
  }

  async forEntity(entityId: string, now: Date): Promise<ReportEvidence | null> {
    const counted = [...this.reports.values()].filter((r) => r.entity.id === entityId && r.moderation_status !== "rejected");
    if (counted.length === 0) return null;
    const abuse = counted.filter((r) => r.feedback !== "false_positive");
    const newest = Math.max(...counted.map((r) => Date.parse(r.updated_at)));
    return {
      reporters: new Set(counted.map((r) => r.reporter_id)).size,
      weighted: abuse.reduce((sum, r) => sum + reportWeight(this.trust.get(r.reporter_id) ?? this.defaultTrust, new Date(r.updated_at), now), 0),
      false_positive_reports: counted.length - abuse.length,
      categories: [...new Set(abuse.map((r) => r.category))].sort(),
      newest_at: new Date(newest).toISOString(),
    };
  }
}
