import { EntitySchema } from "typeorm";
import type { AuditHashVersion, AuditSourceOutcome, Channel, Confidence, Entity, EntityType, RiskLevel, Signal, Verdict } from "@svc/core";
import { idText, integer, json, text, timestamptz } from "./columns.js";

/**
 * One audit record. The record itself lives in the JSON and key columns (`json`: the text that
 * was sealed, lz4-compressed where the server has it; decision 0093); `entity_*`, `risk_*`,
 * `confidence` and `channel` repeat parts of it so history can filter and list without reading
 * the JSON. `seq` is the record's place in the account's hash chain.
 */
/** `checks.signals` for a record whose signals are its verdict's (decision 0096): a JSON string, never an array. */
export const SIGNALS_OF_VERDICT = "verdict.signals";

export interface CheckRow {
  id: string;
  account_id: string;
  seq: number;
  created_at: Date;
  entity_type: EntityType;
  entity_value: string;
  entity_id: string;
  risk_score: number;
  risk_level: RiskLevel;
  confidence: Confidence;
  channel: Channel;
  actor_key_id: string | null;
  request: { entity_value: string; type?: EntityType };
  entity: Entity;
  verdict: Verdict;
  source_outcomes: AuditSourceOutcome[];
  ruleset: string;
  data_versions: Record<string, string>;
  /**
   * Every signal of the check, zero-point ones included; SIGNALS_OF_VERDICT when they are the
   * verdict's own signals (stored once, in the verdict); null for records stored before the column.
   */
  signals: Signal[] | typeof SIGNALS_OF_VERDICT | null;
  prev_hash: string | null;
  record_hash: string;
  hash_version: AuditHashVersion;
  hash_key_id: string | null;
  /** The Idempotency-Key of the request that made the check (not hashed, never shown): a retry after a crash finds the check by it. */
  idempotency_key: string | null;
  /** `verdict.recommended_action` and the codes of its scoring signals (`signalCodesOf`), written at insert so the export never reads the verdict's JSON. */
  recommended_action: string;
  signal_codes: string;
}

export const CheckEntity = new EntitySchema<CheckRow>({
  name: "Check",
  tableName: "checks",
  columns: {
    id: idText({ primary: true }),
    account_id: idText(),
    seq: integer(),
    created_at: timestamptz(),
    entity_type: text(),
    entity_value: text(),
    entity_id: text(),
    risk_score: integer(),
    risk_level: text(),
    confidence: text(),
    channel: text(),
    actor_key_id: text({ nullable: true }),
    request: json(),
    entity: json(),
    verdict: json(),
    source_outcomes: json(),
    ruleset: text(),
    data_versions: json(),
    signals: json({ nullable: true }),
    prev_hash: text({ nullable: true }),
    record_hash: text(),
    hash_version: integer(),
    hash_key_id: text({ nullable: true }),
    idempotency_key: idText({ nullable: true }),
    recommended_action: text(),
    signal_codes: text(),
  },
  uniques: [{ name: "checks_account_seq_key", columns: ["account_id", "seq"] }],
  // Created by the migration as (account_id, created_at DESC, id DESC): history reads it forwards, export backwards.
  indices: [
    { name: "checks_account_created_idx", columns: ["account_id", "created_at", "id"], synchronize: false },
    // Partial (WHERE idempotency_key IS NOT NULL), created by the migration.
    { name: "checks_account_idempotency_idx", columns: ["account_id", "idempotency_key"], synchronize: false },
  ],
});

/** The end of an account's chain; its row lock serialises saves for that account. `mac` seals the head with the audit key. */
export interface ChainHeadRow {
  account_id: string;
  seq: number;
  last_hash: string | null;
  mac: string | null;
  mac_key_id: string | null;
}

export const ChainHeadEntity = new EntitySchema<ChainHeadRow>({
  name: "CheckChainHead",
  tableName: "check_chain_heads",
  columns: {
    account_id: idText({ primary: true }),
    seq: integer(),
    last_hash: text({ nullable: true }),
    mac: text({ nullable: true }),
    mac_key_id: text({ nullable: true }),
  },
});

