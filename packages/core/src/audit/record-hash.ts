import type { AuditMac } from "../ports/audit-mac.js";
import type { AuditRecord, NewAuditRecord } from "./audit-record.js";
import { canonicalJson, canonicalJsonOnce } from "./canonical-json.js";

/**
 * The columns a store keeps beside the record so history and export can list and filter it
 * without reading the record's JSON. They are sealed with the record: a store passes the
 * columns as it holds them when verifying, so an edit to a column alone is caught too.
 */
export interface AuditColumns {
  readonly entity_type: string;
  readonly entity_value: string;
  readonly entity_id: string;
  readonly risk_score: number;
  readonly risk_level: string;
  readonly confidence: string;
  readonly channel: string;
  readonly actor_key_id: string | null;
}

/** The columns as they follow from the record. */
export function auditColumnsOf(r: NewAuditRecord): AuditColumns {
  return {
    entity_type: r.entity.type,
    entity_value: r.entity.value,
    entity_id: r.entity.id,
    risk_score: r.verdict.risk_score,
    risk_level: r.verdict.risk_level,
    confidence: r.verdict.confidence,
    channel: r.actor.channel,
    actor_key_id: r.actor.key_id,
  };
}

type Hashed = NewAuditRecord & { readonly prev_hash: string | null };

/**
 * The text the keyed hash (version 2) covers: a domain tag, then the canonical JSON (sorted
 * keys, RFC 8785 number form) of the record, `prev_hash`, the key id and the listed columns.
 */
export function recordMacInput(record: Hashed, keyId: string, columns: AuditColumns = auditColumnsOf(record)): string {
  const covered: HashedFields & { hash_version?: 2; hash_key_id?: string; columns?: AuditColumns } = hashedFields(record, record.created_at, record.prev_hash);
  covered.hash_version = 2;
  covered.hash_key_id = keyId;
  covered.columns = columns;
  return `svc.audit.v2\n${canonicalJson(covered)}`;
}

/** Version 1 (unkeyed) record hash: SHA-256 over the canonical JSON of the record's fields and `prev_hash`. */
export function legacyRecordHash(record: Hashed, mac: Pick<AuditMac, "sha256">): string {
  return mac.sha256(canonicalJson(hashedFields(record, record.created_at, record.prev_hash)));
}

/**
 * Chains a record to its predecessor and seals it with the current key. `created_at` is
 * normalised to `toISOString()` first, so the hash covers exactly what a database timestamp
 * gives back; fields outside the record type are dropped, since a store would not keep them.
 */
export function sealRecord(record: NewAuditRecord, prevHash: string | null, mac: AuditMac): AuditRecord {
  const at = new Date(record.created_at);
  if (Number.isNaN(at.getTime())) throw new RangeError(`audit record ${record.id}: created_at ${JSON.stringify(record.created_at)} is not a date`);
  // The verdict's text is made here once; the stored row and the response body reuse it. Its
  // signals (the record's `signals` too, most often the same array) and the data versions (one
  // frozen object shared by the checks of a data release) are immutable as well: their texts
  // are made once and reused by the verdict's, the MAC input's and the stored row's.
  serialiseOnce(record.verdict.signals);
  serialiseOnce(record.signals);
  if (Object.isFrozen(record.data_versions)) serialiseOnce(record.data_versions);
  canonicalJsonOnce(record.verdict);
  const fields = hashedFields(record, at.toISOString(), prevHash);
  const hash = mac.mac(mac.keyId, recordMacInput(fields, mac.keyId));
  if (hash === null) throw new Error(`audit key ${mac.keyId} is not available`);
  const sealed = fields as Mutable<AuditRecord>;
  sealed.record_hash = hash;
  sealed.hash_version = 2;
  sealed.hash_key_id = mac.keyId;
  return sealed;
}

/** `canonicalJsonOnce` for a part that is there (an object); anything else is left to the record's text. */
function serialiseOnce(part: unknown): void {
  if (part !== null && typeof part === "object") canonicalJsonOnce(part);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type HashedFields = Mutable<Omit<AuditRecord, "record_hash" | "hash_version" | "hash_key_id">>;

/**
 * The fields a record's hash covers, as a new object, with the `created_at` and `prev_hash` given.
 * Built member by member, never by spreading a record: spread copies of these wide objects were
 * found in the old generation, which only a full collection reclaims (decision 0115).
 */
function hashedFields(r: NewAuditRecord, createdAt: string, prevHash: string | null): HashedFields {
  const fields: HashedFields = {
    id: r.id,
    account_id: r.account_id,
    created_at: createdAt,
    request: r.request,
    entity: r.entity,
    verdict: r.verdict,
    source_outcomes: r.source_outcomes,
    ruleset: r.ruleset,
    data_versions: r.data_versions,
    actor: { key_id: r.actor.key_id, channel: r.actor.channel },
    prev_hash: prevHash,
  };
  // Only when present, so records stored before the field still verify.
  if (r.signals) fields.signals = r.signals;
  return fields;
}

/** The end of an account's chain as the store keeps it, with its own keyed hash (`head_mac`). */
export interface ChainHead {
  readonly account_id: string;
  readonly count: number;
  readonly last_hash: string | null;
  /** HMAC of the three fields above (`chainHeadMacInput`); null only for a head not yet sealed since keyed hashing began. */
  readonly mac: string | null;
  readonly mac_key_id: string | null;
}

/** The text the head's keyed hash covers. */
export function chainHeadMacInput(head: { account_id: string; count: number; last_hash: string | null }): string {
  return `svc.audit.head.v2\n${canonicalJson({ account_id: head.account_id, count: head.count, last_hash: head.last_hash })}`;
}

/** Seals a chain head with the current key. */
export function sealChainHead(head: { account_id: string; count: number; last_hash: string | null }, mac: AuditMac): ChainHead {
  const m = mac.mac(mac.keyId, chainHeadMacInput(head));
  if (m === null) throw new Error(`audit key ${mac.keyId} is not available`);
  return { ...head, mac: m, mac_key_id: mac.keyId };
}

export type ChainBreak =
  /** The record (or the chain head) no longer matches its keyed hash: it was edited. */
  | "hash_mismatch"
  /** The record does not follow the one before it: a record was removed, inserted or moved. */
  | "chain_broken"
  /** Records the chain head counts are not there: removed from the end. */
  | "missing"
  /** The record was sealed with a key this server does not have (see SVC_AUDIT_PREVIOUS_KEYS). */
  | "unknown_key";

export interface ChainVerification {
  readonly ok: boolean;
  /** Records read, the first bad one included. */
  readonly checked: number;
  /** Records of the first, unkeyed scheme (hash_version 1) among those that verified: they prove only that nobody changed them without recomputing plain SHA-256. */
  readonly legacy: number;
  /** The first thing that does not verify; `id` is null when it is not a record (the chain head, or records missing from the end). */
  readonly first_bad?: { readonly id: string | null; readonly reason: ChainBreak; readonly detail: string };
}

export interface ChainVerifier {
  /** Feeds the next record in chain order, with its stored columns; false once the chain is broken (stop reading). */
  push(record: AuditRecord, columns?: AuditColumns): boolean;
  /**
   * The outcome. Pass the stored head to also catch records removed from the end (checked
   * only when the walk covered the whole chain).
   */
  result(head?: ChainHead | null): ChainVerification;
}

export interface ChainStart {
  /** `record_hash` of the record before the first one pushed; null at the start of the chain. */
  readonly prev_hash: string | null;
  /** Whether that record was keyed (version 2): an unkeyed record may not follow a keyed one. */
  readonly keyed: boolean;
}

const same = (a: AuditColumns, b: AuditColumns): boolean =>
  a.entity_type === b.entity_type && a.entity_value === b.entity_value && a.entity_id === b.entity_id
  && a.risk_score === b.risk_score && a.risk_level === b.risk_level && a.confidence === b.confidence
  && a.channel === b.channel && a.actor_key_id === b.actor_key_id;

/** Verifies a chain one record at a time, so a store can stream it in constant memory. */
export function chainVerifier(mac: AuditMac, start: ChainStart = { prev_hash: null, keyed: false }): ChainVerifier {
  let prev = start.prev_hash;
  let lastId: string | null = null;
  let keyed = start.keyed;
  let checked = 0;
  let legacy = 0;
  let broken: ChainVerification | null = null;
  const fail = (id: string | null, reason: ChainBreak, detail: string): ChainVerification => ({ ok: false, checked, legacy, first_bad: { id, reason, detail } });
  const check = (r: AuditRecord, columns: AuditColumns): ChainVerification | null => {
    if (r.prev_hash !== prev) return fail(r.id, "chain_broken", "prev_hash is not the hash of the record before it: a record was removed, inserted or moved");
    if (r.hash_version === 2) {
      if (r.hash_key_id === null) return fail(r.id, "hash_mismatch", "keyed record without a key id");
      const expected = mac.mac(r.hash_key_id, recordMacInput(r, r.hash_key_id, columns));
      if (expected === null) return fail(r.id, "unknown_key", `sealed with key ${r.hash_key_id}, which this server does not have`);
      if (expected !== r.record_hash) return fail(r.id, "hash_mismatch", "the record or its columns changed after it was sealed");
      keyed = true;
      return null;
    }
    if (r.hash_version === 1) {
      if (keyed) return fail(r.id, "hash_mismatch", "an unkeyed record after keyed ones: it was rewritten");
      if (!same(columns, auditColumnsOf(r))) return fail(r.id, "hash_mismatch", "the record's columns differ from the record");
      if (legacyRecordHash(r, mac) !== r.record_hash) return fail(r.id, "hash_mismatch", "the record changed after it was hashed");
      legacy++;
      return null;
    }
    return fail(r.id, "hash_mismatch", `unknown hash version ${String(r.hash_version)}`);
  };
  return {
    push(record, columns = auditColumnsOf(record)) {
      if (broken) return false;
      checked++;
      broken = check(record, columns);
      prev = record.record_hash;
      lastId = record.id;
      return broken === null;
    },
    result(head) {
      if (broken) return broken;
      if (head) {
        // Always keyed: heads from before keyed hashing are sealed at start-up (sealLegacyHeads), so
        // a chain rewritten in full under the unkeyed scheme still fails here.
        const expected = head.mac_key_id === null ? null : mac.mac(head.mac_key_id, chainHeadMacInput(head));
        if (head.mac === null || expected !== head.mac) {
          return fail(null, head.mac !== null && expected === null ? "unknown_key" : "hash_mismatch", "the chain head does not match its keyed hash");
        }
        if (head.count > checked) return fail(null, "missing", `the chain head counts ${head.count} records, ${head.count - checked} of them are missing from the end`);
        if (head.count !== checked) return fail(null, "chain_broken", "the chain does not end where its head says");
        // The sealed head names the last record's hash: a last record that is not that one was rewritten.
        if (head.last_hash !== prev) return fail(lastId, "hash_mismatch", "the last record is not the one the sealed chain head names");
      }
      return { ok: true, checked, legacy };
    },
  };
}

/** Verifies records given in chain order (oldest first). */
export function verifyRecords(records: Iterable<AuditRecord>, mac: AuditMac, head?: ChainHead | null): ChainVerification {
  const v = chainVerifier(mac);
  for (const r of records) if (!v.push(r)) break;
  return v.result(head);
}
