import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { AuditRecord, NewAuditRecord } from "./audit-record.js";
import { canonicalJson } from "./canonical-json.js";

/** SHA-256 (hex) over the canonical JSON of the record's fields and `prev_hash`; `record_hash` itself is left out. */
export function computeRecordHash(record: NewAuditRecord & { readonly prev_hash: string | null }): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(hashedFields(record)))));
}

/**
 * Chains a record to its predecessor. `created_at` is normalised to `toISOString()` first, so
 * the hash covers exactly what a database timestamp gives back; fields outside the record type
 * are dropped, since a store would not keep them.
 */
export function sealRecord(record: NewAuditRecord, prevHash: string | null): AuditRecord {
  const at = new Date(record.created_at);
  if (Number.isNaN(at.getTime())) throw new RangeError(`audit record ${record.id}: created_at ${JSON.stringify(record.created_at)} is not a date`);
  const fields = hashedFields({ ...record, created_at: at.toISOString(), prev_hash: prevHash });
  return { ...fields, record_hash: computeRecordHash(fields) };
}

function hashedFields(r: NewAuditRecord & { readonly prev_hash: string | null }): Omit<AuditRecord, "record_hash"> {
  return {
    id: r.id,
    account_id: r.account_id,
    created_at: r.created_at,
    request: r.request,
    entity: r.entity,
    verdict: r.verdict,
    source_outcomes: r.source_outcomes,
    ruleset: r.ruleset,
    data_versions: r.data_versions,
    // Only when present, so records stored before the field still verify.
    ...(r.signals ? { signals: r.signals } : {}),
    actor: { key_id: r.actor.key_id, channel: r.actor.channel },
    prev_hash: r.prev_hash,
  };
}

/** What a store remembers about the end of an account's chain, so a removed tail is caught too. */
export interface ChainHead {
  readonly count: number;
  readonly last_hash: string | null;
}

export type ChainBreak =
  /** The record's content no longer matches its hash: it was edited. */
  | "record_hash_mismatch"
  /** The record does not follow the one before it: a record was removed, inserted or moved. */
  | "prev_hash_mismatch"
  /** The chain ends before (or after) where the store's head says: records removed from the end. */
  | "head_mismatch";

export interface ChainVerification {
  readonly ok: boolean;
  /** Records read, the first bad one included. */
  readonly checked: number;
  /** The first record that does not verify (absent when the break is after the last record). */
  readonly first_bad_id?: string;
  readonly reason?: ChainBreak;
}

export interface ChainVerifier {
  /** Feeds the next record in chain order; false once the chain is broken (stop reading). */
  push(record: AuditRecord): boolean;
  /** The outcome; pass the stored head to also catch records removed from the end. */
  result(head?: ChainHead | null): ChainVerification;
}

/** Verifies a chain one record at a time, so a store can stream it in constant memory. */
export function chainVerifier(): ChainVerifier {
  let prev: string | null = null;
  let checked = 0;
  let broken: ChainVerification | null = null;
  return {
    push(record) {
      if (broken) return false;
      checked++;
      if (record.prev_hash !== prev) {
        broken = { ok: false, checked, first_bad_id: record.id, reason: "prev_hash_mismatch" };
      } else if (computeRecordHash(record) !== record.record_hash) {
        broken = { ok: false, checked, first_bad_id: record.id, reason: "record_hash_mismatch" };
      }
      prev = record.record_hash;
      return broken === null;
    },
    result(head) {
      if (broken) return broken;
      if (head && (head.count !== checked || head.last_hash !== prev)) return { ok: false, checked, reason: "head_mismatch" };
      return { ok: true, checked };
    },
  };
}

/** Verifies records given in chain order (oldest first). */
export function verifyRecords(records: Iterable<AuditRecord>, head?: ChainHead | null): ChainVerification {
  const v = chainVerifier();
  for (const r of records) if (!v.push(r)) break;
  return v.result(head);
}
