import type { AuditActor, AuditRecord, NewAuditRecord } from "../audit/audit-record.js";
import type { Verdict } from "../detection/types.js";
import type { AuditExportRow } from "../ports/check-repository.js";
import type { Entity } from "../entities/types.js";
import type { Screened } from "./screen-entity.js";

export interface AuditInput {
  readonly accountId: string;
  readonly actor: AuditActor;
  /** The request as the caller sent it (its `type` only when given). */
  readonly request: { readonly entity_value: string; readonly type?: string };
  readonly screened: Screened;
  readonly now: Date;
  /** The request's `Idempotency-Key`, when it had one. */
  readonly idempotencyKey?: string;
}

/**
 * The audit record of one check, before the store chains it. Every surface that screens for an
 * account (the API, the asynchronous worker, the CLI) stores its verdicts through this one
 * function, so records from each are alike.
 */
export function auditRecordOf(input: AuditInput): NewAuditRecord {
  const { screened: r, request } = input;
  const v = r.verdict;
  return {
    id: v.id,
    account_id: input.accountId,
    created_at: input.now.toISOString(),
    request: request.type ? { entity_value: request.entity_value, type: request.type as Entity["type"] } : { entity_value: request.entity_value },
    entity: r.entity,
    verdict: v,
    source_outcomes: r.source_outcomes,
    ruleset: v.policy.ruleset,
    data_versions: r.data_versions,
    signals: r.signals,
    actor: input.actor,
    ...(input.idempotencyKey ? { idempotency_key: input.idempotencyKey } : {}),
  };
}

/** The codes of the verdict's scoring signals (points > 0), `;`-separated in verdict order: the export's `signals` field. */
export function signalCodesOf(v: Pick<Verdict, "signals">): string {
  let out = "";
  for (const x of v.signals) if (x.points > 0) out = out === "" ? x.code : `${out};${x.code}`;
  return out;
}

/** The CSV export's line for one audit record. */
export function auditExportRowOf(r: AuditRecord): AuditExportRow {
  return {
    id: r.id, created_at: r.created_at, entity_type: r.entity.type, entity_value: r.entity.value,
    risk_score: r.verdict.risk_score, risk_level: r.verdict.risk_level, confidence: r.verdict.confidence,
    recommended_action: r.verdict.recommended_action,
    signals: signalCodesOf(r.verdict),
    ruleset: r.ruleset, channel: r.actor.channel, key_id: r.actor.key_id ?? null, prev_hash: r.prev_hash ?? null, record_hash: r.record_hash,
  };
}
