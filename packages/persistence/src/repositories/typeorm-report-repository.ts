import type { DataSource } from "typeorm";
import {
  DEFAULT_REPORTER_TRUST, REPORT_HALF_LIFE_DAYS,
  type ModerationStatus, type NewReport, type ReportEvidence, type ReportRecord, type ReportRepository,
} from "@svc/core";
import type { ReportRow } from "../entities/report.js";
import { affectedOf, iso, newId } from "./sql.js";

export class TypeOrmReportRepository implements ReportRepository {
  constructor(private readonly ds: DataSource, private readonly defaultTrust: number = DEFAULT_REPORTER_TRUST) {}

  async file(report: NewReport, now: Date): Promise<{ report: ReportRecord; created: boolean }> {
    // One row per (entity, reporter): a second report replaces the first and is moderated afresh.
    const [row] = (await this.ds.manager.query(
      `INSERT INTO reports (id, reporter_id, entity_id, entity_type, entity_value, category, description,
                            evidence_urls, related_entities, check_id, feedback, moderation_status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, 'unverified', $12, $12)
       ON CONFLICT (entity_id, reporter_id) DO UPDATE SET
         entity_type = EXCLUDED.entity_type, entity_value = EXCLUDED.entity_value, category = EXCLUDED.category,
         description = EXCLUDED.description, evidence_urls = EXCLUDED.evidence_urls,
         related_entities = EXCLUDED.related_entities, check_id = EXCLUDED.check_id, feedback = EXCLUDED.feedback,
         moderation_status = 'unverified', updated_at = EXCLUDED.updated_at
       RETURNING *, (xmax = 0) AS created`,
      [
        report.id ?? newId("rep"), report.reporter_id, report.entity.id, report.entity.type, report.entity.value,
        report.category, report.description ?? null, JSON.stringify(report.evidence_urls ?? []),
        JSON.stringify(report.related_entities ?? []), report.check_id ?? null, report.feedback ?? null, now,
      ],
    )) as (ReportRow & { created: boolean })[];
    if (!row) throw new Error("report upsert returned no row");
    return { report: toReport(row), created: row.created };
  }

  async get(reportId: string): Promise<ReportRecord | null> {
    const [row] = (await this.ds.manager.query(`SELECT * FROM reports WHERE id = $1`, [reportId])) as ReportRow[];
    return row ? toReport(row) : null;
  }

  async setReporterTrust(reporterId: string, trust: number): Promise<void> {
    if (!(trust >= 0 && trust <= 1)) throw new RangeError(`reporter trust must be within 0..1, got ${trust}`);
    await this.ds.manager.query(
      `INSERT INTO reporters (id, trust) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET trust = EXCLUDED.trust`,
      [reporterId, trust],
    );
  }

  async moderate(reportId: string, status: ModerationStatus): Promise<boolean> {
    return affectedOf(await this.ds.manager.query(`UPDATE reports SET moderation_status = $2 WHERE id = $1`, [reportId, status])) > 0;
  }

  async forEntity(entityId: string, now: Date): Promise<ReportEvidence | null> {
    return (await this.forEntities([{ entityId, now }]))[0] ?? null;
  }

  /** `forEntity` for many entities in one query; one result per item, in order. */
  async forEntities(items: readonly { readonly entityId: string; readonly now: Date }[]): Promise<(ReportEvidence | null)[]> {
    if (items.length === 0) return [];
    // Weight of a report: reporter trust × 0.5^(age in days / half-life); a future date counts as now.
    const rows = (await this.ds.manager.query(
      `SELECT q.ord::int AS ord, count(*)::int AS reporters,
              coalesce(sum(coalesce(p.trust, $3::float8)
                           * power(0.5::float8, greatest(0, extract(epoch FROM (q.now - r.updated_at)))::float8 / 86400.0 / $4::float8))
                       FILTER (WHERE r.feedback IS DISTINCT FROM 'false_positive'), 0)::float8 AS weighted,
              count(*) FILTER (WHERE r.feedback = 'false_positive')::int AS false_positive_reports,
              coalesce(array_agg(DISTINCT r.category) FILTER (WHERE r.feedback IS DISTINCT FROM 'false_positive'), '{}') AS categories,
              max(r.updated_at) AS newest_at
         FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS q(entity_id, now, ord)
         JOIN reports r ON r.entity_id = q.entity_id AND r.moderation_status <> 'rejected'
         LEFT JOIN reporters p ON p.id = r.reporter_id
        GROUP BY q.ord`,
      [items.map((i) => i.entityId), items.map((i) => i.now.toISOString()), this.defaultTrust, REPORT_HALF_LIFE_DAYS],
    )) as { ord: number; reporters: number; weighted: number; false_positive_reports: number; categories: string[]; newest_at: Date | null }[];
    const out: (ReportEvidence | null)[] = items.map(() => null);
    for (const row of rows) {
      if (row.reporters === 0) continue;
      out[row.ord - 1] = {
        reporters: row.reporters,
        weighted: row.weighted,
        false_positive_reports: row.false_positive_reports,
        categories: [...row.categories].sort(),
        newest_at: row.newest_at ? iso(row.newest_at) : null,
      };
    }
    return out;
  }
}

function toReport(r: ReportRow): ReportRecord {
  return {
    id: r.id,
    reporter_id: r.reporter_id,
    entity: { type: r.entity_type, value: r.entity_value, id: r.entity_id },
    category: r.category,
    description: r.description,
    evidence_urls: r.evidence_urls,
    related_entities: r.related_entities,
    check_id: r.check_id,
    feedback: r.feedback,
    moderation_status: r.moderation_status,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
