import { DISCLAIMER, type Channel, type EntityType, type NewAuditRecord, type RiskLevel, type Verdict } from "@svc/core";

export interface AuditRecordSpec {
  readonly account_id: string;
  readonly id?: string;
  readonly created_at?: string;
  readonly type?: EntityType;
  readonly value?: string;
  readonly risk_score?: number;
  readonly risk_level?: RiskLevel;
  readonly channel?: Channel;
  readonly key_id?: string | null;
}

let counter = 0;

/** A unique id with a prefix, for test data that shares one database with other tests. */
export const uniqueId = (prefix: string): string => `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

/** A complete audit record (before chaining) with a plausible verdict; override what the test is about. */
export function anAuditRecord(spec: AuditRecordSpec): NewAuditRecord {
  const id = spec.id ?? uniqueId("chk");
  const created = spec.created_at ?? new Date(Date.UTC(2026, 10, 1) + ++counter * 1000).toISOString();
  const type = spec.type ?? "domain";
  const value = spec.value ?? `example-${++counter}.com`;
  const entity = { type, value, id: `${type}:${value}`, input: ` ${value.toUpperCase()} `, attributes: { registered_domain: value, idn: false } };
  const score = spec.risk_score ?? 12;
  const verdict: Verdict = {
    id,
    entity: { type, value, input: entity.input, id: entity.id },
    risk_score: score,
    risk_level: spec.risk_level ?? "low",
    recommended_action: "allow",
    confidence: "medium",
    confidence_score: 0.61,
    signals: [{
      code: "domain.young",
      category: "lexical",
      severity: "info",
      points: 0,
      message: "Nothing known about this entity",
      source: { name: "lexical", version: "2026.11.1" },
      evidence: { labels: 2, entropy: 2.75, note: null, list: ["a", 1, true] },
      observed_at: created,
      expires_at: null,
    }],
    attributes: entity.attributes,
    coverage: { evaluated: ["intel", "lexical"], unavailable: [{ source: "rdap", reason: "timeout" }] },
    policy: { ruleset: "2026.11.1", thresholds: { review: 65, block: 85 } },
    evaluated_at: created,
    expires_at: new Date(Date.parse(created) + 86_400_000).toISOString(),
    disclaimer: DISCLAIMER,
  };
  return {
    id,
    account_id: spec.account_id,
    created_at: created,
    request: { entity_value: entity.input },
    entity,
    verdict,
    source_outcomes: [{ source: "intel", status: "ok", ms: 1 }, { source: "rdap", status: "unavailable", ms: 2000, reason: "timeout" }],
    ruleset: "2026.11.1",
    data_versions: { brands: "2026.11.1", intel: "svc-brands@2026-11-01" },
    actor: { key_id: spec.key_id === undefined ? "key_test" : spec.key_id, channel: spec.channel ?? "api" },
  };
}
