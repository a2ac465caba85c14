import type { Entity, EntityType } from "../entities/types.js";
import type { Signal, Verdict } from "../detection/types.js";

/** Who asked for a check, and through which surface. */
export type Channel = "api" | "cli" | "bot" | "library" | "worker";
export const CHANNELS: readonly Channel[] = ["api", "cli", "bot", "library", "worker"];

export interface AuditActor {
  /** The API key id, or null when no key was involved (CLI, library, bots acting for a group). */
  readonly key_id: string | null;
  readonly channel: Channel;
}

/** How one evidence source answered during a check. */
export interface AuditSourceOutcome {
  readonly source: string;
  readonly status: "ok" | "unavailable" | "error";
  readonly ms: number;
  readonly reason?: string;
}

/**
 * Everything needed to explain and reproduce one verdict later, chained to the account's
 * previous record by hash so that an edited, removed or reordered record is detectable.
 */
export interface AuditRecord {
  /** The check id, e.g. `chk_…`; also `verdict.id`. */
  readonly id: string;
  readonly account_id: string;
  /** ISO 8601 with milliseconds, UTC (`Date#toISOString`). */
  readonly created_at: string;
  readonly request: { readonly entity_value: string; readonly type?: EntityType };
  readonly entity: Entity;
  readonly verdict: Verdict;
  readonly source_outcomes: readonly AuditSourceOutcome[];
  readonly ruleset: string;
  readonly data_versions: Readonly<Record<string, string>>;
  /**
   * Every signal the check produced, zero-point ones included — also those an allowlist
   * overrode, which the verdict does not list as reasons. Absent on records stored before.
   */
  readonly signals?: readonly Signal[];
  readonly actor: AuditActor;
  /** `record_hash` of the account's previous record; null for its first one. */
  readonly prev_hash: string | null;
  /**
   * Version 2: HMAC-SHA-256 (hex), under the server key `hash_key_id`, over the canonical JSON
   * of every other field (`prev_hash` included) and of the columns history and export show.
   * Version 1 (records written before keyed hashing): plain SHA-256 over the record's fields.
   */
  readonly record_hash: string;
  /** 1: unkeyed SHA-256 (legacy records); 2: keyed HMAC-SHA-256. */
  readonly hash_version: AuditHashVersion;
  /** The key that sealed the record (version 2); null for version 1. */
  readonly hash_key_id: string | null;
}

export type AuditHashVersion = 1 | 2;

/**
 * A record before the store has chained it: the store assigns the hashes atomically.
 * `idempotency_key` is the `Idempotency-Key` of the request that made the check: the store keeps
 * it beside the record (outside the hash; history and export do not show it) so that a retry of
 * a request whose process died finds the check instead of making another.
 */
export type NewAuditRecord = Omit<AuditRecord, "prev_hash" | "record_hash" | "hash_version" | "hash_key_id"> & { readonly idempotency_key?: string };
