import type { Evidence, Family, Finding, SourceRef } from "../types.js";

/** Findings that only say "the brand's name is here"; a stronger finding about the same brand makes them redundant. */
const WEAK_CODES: ReadonlySet<string> = new Set(["domain.brand_in_subdomain", "domain.brand_in_name"]);

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
  private readonly byCode = new Map<string, Finding>();

  add(f: Finding | null): void {
    if (!f) return;
    const cur = this.byCode.get(f.code);
    if (!cur || (f.strength ?? 1) > (cur.strength ?? 1)) this.byCode.set(f.code, f);
  }

  list(): Finding[] {
    const all = [...this.byCode.values()];
    const strongBrands = new Set(all.filter((f) => !WEAK_CODES.has(f.code)).map((f) => f.evidence.brand));
    const kept = all.filter((f) => !WEAK_CODES.has(f.code) || !strongBrands.has(f.evidence.brand));
    return kept.sort((a, b) => (b.strength ?? 1) - (a.strength ?? 1) || a.code.localeCompare(b.code));
  }
}
