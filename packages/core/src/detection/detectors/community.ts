import type { GraphPath, ReportEvidence } from "../../ports/evidence.js";
import type { Finding } from "../types.js";

/**
 * Community reports that count (confirmed, or from reporters with earned trust), already weighted
 * and decayed with age by the store; the source version is when that set last changed.
 */
export function reportFindings(r: ReportEvidence | null): Finding[] {
  if (!r || r.reporters === 0) return [];
  const out: Finding[] = [];
  if (r.weighted > 0) {
    out.push({
      code: "reports.community",
      family: "reports",
      message: `Reported by ${r.reporters} ${r.reporters === 1 ? "person" : "people"}${r.categories.length > 0 ? ` as ${r.categories.join(", ")}` : ""}`,
      evidence: { reporters: r.reporters, weighted: Math.round(r.weighted * 100) / 100, categories: [...r.categories] },
      source: { name: "community-reports", version: r.version },
      // Saturates: three fully trusted, fresh reports give ~80 % of the rule's weight.
      strength: 1 - Math.exp(-r.weighted / 2),
      ...(r.newest_at ? { observed_at: r.newest_at } : {}),
    });
  }
  if (r.false_positive_reports > 0) {
    out.push({
      code: "reports.disputed",
      family: "reports",
      message: `${r.false_positive_reports} ${r.false_positive_reports === 1 ? "person says" : "people say"} an earlier verdict was a false positive`,
      evidence: { false_positive_reports: r.false_positive_reports },
      source: { name: "community-reports", version: r.version },
    });
  }
  return out;
}

/**
 * Proximity in the shared entity graph to entities that shared evidence (an intel blocklist,
 * confirmed reports) says are bad, decaying with each hop, explained by its path and by that
 * evidence. Its source version is when the newest of that evidence was recorded.
 */
export function graphFindings(paths: readonly GraphPath[]): Finding[] {
  const best = [...paths].sort((a, b) => hopWeight(b) - hopWeight(a))[0];
  if (!best) return [];
  const hops = best.nodes.length - 1;
  const bad = best.nodes[best.nodes.length - 1] as string;
  const via = best.relations.join(" → ");
  const why: string[] = [];
  if (best.evidence.blocklisted_by.length > 0) why.push(`blocklisted by ${best.evidence.blocklisted_by.join(", ")}`);
  const n = best.evidence.confirmed_reports;
  if (n > 0) why.push(`${n} confirmed ${n === 1 ? "report" : "reports"}`);
  return [{
    code: "graph.linked_to_bad",
    family: "graph",
    message: `Linked to ${bad} (${why.join(", ")}: risk ${best.risk_score}) by ${via}${hops > 1 ? ` (${hops} hops)` : ""}`,
    evidence: {
      path: [...best.nodes], relations: [...best.relations], hops, bad_risk_score: best.risk_score,
      blocklisted_by: [...best.evidence.blocklisted_by], confirmed_reports: n,
    },
    source: { name: "entity-graph", version: best.evidence.as_of ?? "no-evidence-date" },
    strength: hopWeight(best),
    ...(best.evidence.as_of ? { observed_at: best.evidence.as_of } : {}),
  }];
}

const hopWeight = (p: GraphPath): number => (p.risk_score / 100) * 0.6 ** (p.nodes.length - 2);
