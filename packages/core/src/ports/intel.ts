import type { Entity, EntityType } from "../entities/types.js";

export type IntelList = "allow" | "block";

/** One curated statement about an entity: "this is official" or "this is known bad". */
export interface IntelRecord {
  readonly type: EntityType;
  /** Canonical value (as `parseEntity` gives it). */
  readonly value: string;
  readonly list: IntelList;
  /** Short reason, e.g. "phishing", "sanctioned", "official domain of PayPal". */
  readonly label: string;
  /** Feed or list name, e.g. "eth-phishing-detect", "svc-brands", "ofac-sdn". */
  readonly source: string;
  /** ISO 8601; when the entry was added to its source (for freshness), if known. */
  readonly added_at?: string;
  /** The version of the data set the entry comes from, when it has one (bundled lists). */
  readonly version?: string;
}

export interface IntelMatch extends IntelRecord {
  /** The entity itself matched, or a parent domain of its host did. */
  readonly matched_on: "exact" | "parent";
  /** The value that matched (the entity, or the parent domain). */
  readonly matched_value: string;
}

/**
 * Curated allow/block lists. Lookups match the entity and, for hosts (domain, URL, e-mail
 * domain), every parent domain by whole labels — never substrings.
 */
export interface IntelStore {
  lookup(entity: Entity): Promise<readonly IntelMatch[]>;
  /** Adds or replaces records (same type, value, list and source); returns counts. */
  upsert(records: readonly IntelRecord[]): Promise<{ added: number; updated: number }>;
  /** Data version for audit records: e.g. the newest import time per source. */
  version(): Promise<string>;
}

/**
 * An intel store that answers from memory. Screening with only such a store (no reports, graph
 * or outside providers) takes a path without promises or deadlines: nothing there can be slow.
 */
export interface SyncIntelStore extends IntelStore {
  lookupSync(entity: Pick<Entity, "type" | "value" | "attributes">): readonly IntelMatch[];
  versionSync(): string;
}

export const isSyncIntelStore = (s: IntelStore): s is SyncIntelStore =>
  typeof (s as Partial<SyncIntelStore>).lookupSync === "function" && typeof (s as Partial<SyncIntelStore>).versionSync === "function";
