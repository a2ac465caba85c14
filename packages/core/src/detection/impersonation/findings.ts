import { collationCompare } from "../collation.js";
import type { Evidence, Family, Finding, SourceRef } from "../types.js";

/** Findings that only say "the brand's name is here"; a stronger finding about the same brand makes them redundant. */
const WEAK_CODES: ReadonlySet<string> = new Set(["domain.brand_in_subdomain", "domain.brand_in_name"]);

/** `localeCompare`'s order (collation.ts). */
const byCode = collationCompare;

const round = (x: number): number => Math.round(Math.max(0, Math.min(1, x)) * 100) / 100;

export function finding(code: string, family: Family, message: string, evidence: Evidence, source: SourceRef, strength: number): Finding {
  return { code, family, message, evidence, source, strength: round(strength) };
}

/**
 * Keeps the best finding per code (highest strength, first on ties), and drops the weak
 * "brand name present" findings for a brand that a stronger finding already names: one fact,
 * reported once.
 */
export class BestFindings {
  /** At most one per code; a check has a handful, so a list searched by code is cheaper than a map. */
  private readonly best: Finding[] = [];

  add(f: Finding | null): void {
    if (!f) return;
    const best = this.best;
    for (let i = 0; i < best.length; i++) {
      const cur = best[i] as Finding;
      if (cur.code !== f.code) continue;
      if ((f.strength ?? 1) > (cur.strength ?? 1)) best[i] = f;
      return;
    }
    best.push(f);
  }

  list(): Finding[] {
    const all = this.best;
    // Most names impersonate nothing, and one finding has nothing to be weighed against.
    if (all.length <= 1) return all;
    const strongBrands = new Set(all.filter((f) => !WEAK_CODES.has(f.code)).map((f) => f.evidence.brand));
    const kept = all.filter((f) => !WEAK_CODES.has(f.code) || !strongBrands.has(f.evidence.brand));
    return kept.sort((a, b) => (b.strength ?? 1) - (a.strength ?? 1) || byCode(a.code, b.code));
  }
}
