import type { DataSource } from "typeorm";
import {
  CONFIRMED_REPORT_TRUST, EARNED_TRUST, REPORT_HALF_LIFE_DAYS, REPORT_LIST_LIMIT, clampInt, decodeCursor, encodeCursor,
  type FiledReport, type ModerationDecision, type ModerationStatus, type NewReport, type ReportEvidence, type ReportListQuery, type ReportPage,
  type ReportRecord, type ReportRepository,
} from "@svc/core";
import type { ReportRow } from "../entities/report.js";
import { rawQuery } from "./raw-sql.js";
import { iso, isoOrNull, newId } from "./sql.js";

export class TypeOrmReportRepository implements ReportRepository {
  /** The per-check evidence read as a prepared statement on a raw session (decisions 0044, 0094). */
  private readonly raw: ReturnType<typeof rawQuery>;

  constructor(private readonly ds: DataSource) {
    this.raw = rawQuery(ds);
  }

  async file(report: NewReport, now: Date): Promise<FiledReport> {
    // One row per (entity, reporter): a second report replaces the first and is moderated afresh.
    // The CTE reads the row as it was before this statement, for the caller to undo what a
    // confirmation of the replaced report did.
    const [row] = (await this.ds.manager.query(
      `WITH before AS (SELECT moderation_status, related_entities FROM reports WHERE entity_id = $3 AND reporter_id = $2)
       INSERT INTO reports (id, reporter_id, entity_id, entity_type, entity_value, category, description,
                            evidence_urls, related_entities, check_id, feedback, moderation_status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, 'unverified', $12, $12)
       ON CONFLICT (entity_id, reporter_id) DO UPDATE SET
         entity_type = EXCLUDED.entity_type, entity_value = EXCLUDED.entity_value, category = EXCLUDED.category,
         description = EXCLUDED.description, evidence_urls = EXCLUDED.evidence_urls,
         related_entities = EXCLUDED.related_entities, check_id = EXCLUDED.check_id, feedback = EXCLUDED.feedback,
         moderation_status = 'unverified', moderated_at = NULL, moderated_by = NULL, moderation_reason = NULL,
         updated_at = EXCLUDED.updated_at
       RETURNING *, (xmax = 0) AS created, (SELECT moderation_status FROM before) AS previous_status,
                 (SELECT related_entities FROM before) AS previous_related`,
      [
        report.id ?? newId("rep"), report.reporter_id, report.entity.id, report.entity.type, report.entity.value,
        report.category, report.description ?? null, JSON.stringify(report.evidence_urls ?? []),
        JSON.stringify(report.related_entities ?? []), report.check_id ?? null, report.feedback ?? null, now,
      ],
    )) as (ReportRow & { created: boolean; previous_status: ModerationStatus | null; previous_related: string[] | null })[];
    if (!row) throw new Error("report upsert returned no row");
    const { created, previous_status, previous_related, ...rest } = row;
    return {
      report: toReport(rest),
      created,
      previous: created || !previous_status ? null : { moderation_status: previous_status, related_entities: previous_related ?? [] },
    };
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

  async moderate(reportId: string, d: ModerationDecision): Promise<{ report: ReportRecord; previous_status: ModerationStatus } | null> {
    // The same decision again changes nothing (first time and author kept); the row lock makes
    // concurrent decisions on one report take turns, so `previous_status` is exact.
    return this.ds.transaction(async (m) => {
      const [before] = (await m.query(`SELECT * FROM reports WHERE id = $1 FOR UPDATE`, [reportId])) as ReportRow[];
      if (!before) return null;
      if (before.moderation_status === d.status && before.moderation_reason === d.reason && before.moderated_at !== null) {
        return { report: toReport(before), previous_status: before.moderation_status };
      }
      const raw = (await m.query(
        `UPDATE reports SET moderation_status = $2, moderated_at = $3, moderated_by = $4, moderation_reason = $5 WHERE id = $1 RETURNING *`,
        [reportId, d.status, d.at, d.by, d.reason],
      )) as unknown[];
      // TypeORM's postgres dialect answers an UPDATE … RETURNING with [rows, count].
      const row = (Array.isArray(raw[0]) ? raw[0][0] : raw[0]) as ReportRow | undefined;
      if (!row) throw new Error("report update returned no row");
      return { report: toReport(row), previous_status: before.moderation_status };
    });
  }

  async list(query: ReportListQuery): Promise<ReportPage> {
    const limit = clampInt(query.limit, 1, REPORT_LIST_LIMIT.max, REPORT_LIST_LIMIT.default);
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = (await this.ds.manager.query(
      `SELECT * FROM reports
        WHERE ($1::text IS NULL OR moderation_status = $1::text)
          AND ($2::text IS NULL OR entity_id = $2::text)
          AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::text COLLATE "C"))
        ORDER BY created_at, id COLLATE "C"
        LIMIT ${limit + 1}`,
      [query.status ?? null, query.entity_id ?? null, after?.created_at ?? null, after?.id ?? null],
    )) as ReportRow[];
    const items = rows.slice(0, limit).map(toReport);
    const last = items[items.length - 1];
    return { items, next_cursor: rows.length > limit && last ? encodeCursor({ created_at: last.created_at, id: last.id }) : null };
  }

  async confirmedRelated(entityId: string): Promise<readonly string[]> {
    const rows = (await this.ds.manager.query(
      `SELECT DISTINCT x.id FROM reports r CROSS JOIN LATERAL jsonb_array_elements_text(r.related_entities) AS x(id)
        WHERE r.entity_id = $1 AND r.moderation_status = 'confirmed'
        ORDER BY 1`,
      [entityId],
    )) as { id: string }[];
    return rows.map((r) => r.id).sort(byBytes);
  }

  async forEntity(entityId: string, now: Date): Promise<ReportEvidence | null> {
    return (await this.forEntities([{ entityId, now }]))[0] ?? null;
  }

  /** `forEntity` for many entities in one query; one result per item, in order. */
  async forEntities(items: readonly { readonly entityId: string; readonly now: Date }[]): Promise<(ReportEvidence | null)[]> {
    if (items.length === 0) return [];
    // Trust of a report: CONFIRMED_REPORT_TRUST once confirmed; unmoderated, the trust the
    // operator gave its reporter, else what the reporter's record earns (earnedReporterTrust in
    // @svc/core, the same formula); reports with no trust do not count at all.
    // Weight: trust × 0.5^(age in days / half-life); a future date counts as now.
    const rows = (await this.raw(
      "svc_report_evidence",
      `WITH q AS (SELECT * FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS q(entity_id, now, ord)),
       counted AS (
         SELECT q.ord, q.now, r.reporter_id, r.category, r.feedback, r.updated_at,
                CASE WHEN r.moderation_status = 'confirmed' THEN r.moderated_at ELSE r.updated_at END AS counted_since,
                CASE WHEN r.moderation_status = 'confirmed' THEN $3::float8
                     WHEN p.trust IS NOT NULL THEN p.trust
                     WHEN h.confirmed >= $4::int
                       THEN least($7::float8, greatest(0::float8, (h.confirmed - $5::float8 * h.rejected) / (h.confirmed + h.rejected + $6::float8)))
                     ELSE 0::float8 END AS trust
           FROM q
           JOIN reports r ON r.entity_id = q.entity_id AND r.moderation_status <> 'rejected'
           LEFT JOIN reporters p ON p.id = r.reporter_id
           LEFT JOIN LATERAL (
             SELECT count(*) FILTER (WHERE x.moderation_status = 'confirmed')::int AS confirmed,
                    count(*) FILTER (WHERE x.moderation_status = 'rejected')::int AS rejected
               FROM reports x WHERE x.reporter_id = r.reporter_id AND x.moderation_status <> 'unverified'
           ) h ON r.moderation_status = 'unverified' AND p.trust IS NULL
       )
       SELECT ord::int AS ord, count(*)::int AS reporters,
              coalesce(sum(trust * power(0.5::float8, greatest(0, extract(epoch FROM (now - updated_at)))::float8 / 86400.0 / $8::float8))
                       FILTER (WHERE feedback IS DISTINCT FROM 'false_positive'), 0)::float8 AS weighted,
              count(*) FILTER (WHERE feedback = 'false_positive')::int AS false_positive_reports,
              coalesce(array_agg(DISTINCT category) FILTER (WHERE feedback IS DISTINCT FROM 'false_positive'), '{}') AS categories,
              max(updated_at) AS newest_at, max(counted_since) AS version
         FROM counted WHERE trust > 0
        GROUP BY ord`,
      [
        items.map((i) => i.entityId), items.map((i) => i.now.toISOString()), CONFIRMED_REPORT_TRUST,
        EARNED_TRUST.minConfirmed, EARNED_TRUST.rejectionCost, EARNED_TRUST.prior, EARNED_TRUST.max, REPORT_HALF_LIFE_DAYS,
      ],
    )) as { ord: number; reporters: number; weighted: number; false_positive_reports: number; categories: string[]; newest_at: Date | null; version: Date }[];
    const out: (ReportEvidence | null)[] = items.map(() => null);
    for (const row of rows) {
      if (row.reporters === 0) continue;
      out[row.ord - 1] = {
        reporters: row.reporters,
        weighted: row.weighted,
        false_positive_reports: row.false_positive_reports,
        categories: [...row.categories].sort(),
        newest_at: row.newest_at ? iso(row.newest_at) : null,
        version: iso(row.version),
      };
    }
    return out;
  }
}

const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

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
    moderated_at: isoOrNull(r.moderated_at),
    moderated_by: r.moderated_by,
    moderation_reason: r.moderation_reason,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
