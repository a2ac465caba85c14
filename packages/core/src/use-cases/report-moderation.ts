import { parseEntity } from "../entities/parse-entity.js";
import { shareableEntityId } from "../entities/shareable.js";
import type { Entity } from "../entities/types.js";
import type { GraphRepository } from "../ports/graph-repository.js";
import type { ReportRepository } from "../ports/report-repository.js";
import { splitEntityId } from "../ports/storage-limits.js";

/** The relation and source of the edges confirmed reports put in the shared entity graph. */
export const REPORTED_WITH = { relation: "reported_with", source: "reports" } as const;

/** The form of an entity id that may enter shared evidence; null when it has none. */
function shareableOf(id: string): string | null {
  const parts = splitEntityId(id);
  if (!parts) return null;
  const parsed = parseEntity(parts.value, { type: parts.type });
  return parsed.ok ? shareableEntityId(parsed.entity) : null;
}

/**
 * Brings the shared graph's `reported_with` edges from `entityId` to the related entities in
 * `touched` in line with the entity's confirmed reports: an edge stands while at least one
 * confirmed report names it, and only then. Call it after a report about the entity changed
 * status (confirmed, rejected, or replaced by a new unmoderated one) with that report's related
 * entities. Endpoints enter only in their shareable form (a URL without user-info, query and
 * fragment; an e-mail address as its domain). Running it again changes nothing.
 */
export async function syncReportedWith(
  deps: { readonly reports: Pick<ReportRepository, "confirmedRelated">; readonly graph: Pick<GraphRepository, "upsertEdges" | "removeEdges"> },
  entityId: string,
  touched: readonly string[],
  seenAt: Date,
): Promise<void> {
  const from = shareableOf(entityId);
  if (!from || touched.length === 0) return;
  const standing = new Set((await deps.reports.confirmedRelated(entityId)).map(shareableOf));
  const ends = [...new Set(touched.map(shareableOf))].filter((to): to is string => to !== null && to !== from);
  const keep = ends.filter((to) => standing.has(to));
  const drop = ends.filter((to) => !standing.has(to));
  if (keep.length > 0) await deps.graph.upsertEdges(keep.map((to) => ({ from, to, relation: REPORTED_WITH.relation, weight: 1, source: REPORTED_WITH.source, seen_at: seenAt })));
  if (drop.length > 0) await deps.graph.removeEdges(drop.map((to) => ({ from, to, relation: REPORTED_WITH.relation })));
}

/**
 * Whether a check is about the reported entity, so that a report may cite it: the same entity;
 * for a checked URL also its host and registered domain (and the URL in its shareable form);
 * for a checked e-mail address its domain and registered domain.
 */
export function checkCoversEntity(checked: Pick<Entity, "type" | "id" | "attributes">, reportedId: string): boolean {
  if (checked.id === reportedId) return true;
  const a = checked.attributes;
  const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
  const covered = new Set<string>();
  if (checked.type === "url") {
    const ip = str(a.ip_literal);
    const host = str(a.host);
    if (ip) covered.add(`ip_address:${ip}`);
    else if (host) covered.add(`domain:${host}`);
    const shareable = shareableEntityId(checked);
    if (shareable) covered.add(shareable);
  }
  if (checked.type === "email") {
    const domain = str(a.domain);
    if (domain) covered.add(`domain:${domain}`);
  }
  if (checked.type === "url" || checked.type === "email") {
    const registered = str(a.registered_domain);
    if (registered) covered.add(`domain:${registered}`);
  }
  return covered.has(reportedId);
}
