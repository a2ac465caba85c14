/** Community reports about one entity, already weighted and aggregated by the store. */
export interface ReportEvidence {
  /** Distinct reporters (one report per reporter per entity counts). */
  readonly reporters: number;
  /** Sum of reporter trust weights (0..1 each), decayed by report age. */
  readonly weighted: number;
  /** Verdict feedback saying an earlier verdict was wrong. */
  readonly false_positive_reports: number;
  readonly categories: readonly string[];
  readonly newest_at: string | null;
  /**
   * When the counted set last changed: the newest moment a counted report began to count (its
   * confirmation, or its filing when its reporter's earned trust counts it unmoderated).
   */
  readonly version: string;
}

export interface ReportEvidenceSource {
  forEntity(entityId: string, now: Date): Promise<ReportEvidence | null>;
}

/** A path in the entity graph from the screened entity to a known-bad one. */
export interface GraphPath {
  /** Entity ids from the screened entity (first) to the bad one (last). */
  readonly nodes: readonly string[];
  /** Relation of each hop (`nodes[i]` → `nodes[i+1]`). */
  readonly relations: readonly string[];
  /** Risk score of the bad entity at the end of the path, from its shared evidence alone. */
  readonly risk_score: number;
  /** The shared evidence that makes the last entity bad. */
  readonly evidence: {
    /** Intel sources that blocklist it (sorted). */
    readonly blocklisted_by: readonly string[];
    /** Confirmed community reports about it. */
    readonly confirmed_reports: number;
    /** When the newest of that evidence was recorded: the version of this finding's source. */
    readonly as_of: string | null;
  };
}

export interface GraphProximitySource {
  /**
   * Paths along shared edges to entities that shared evidence says are bad, within `maxDepth`
   * hops, nearest first. `now` dates the decay of report weights (default: the adapter's clock).
   */
  badNeighbours(entityId: string, maxDepth: number, now?: Date): Promise<readonly GraphPath[]>;
}

/** Wallet addresses seen recently (e.g. in a chat, or by an account) that look-alikes may imitate. */
export interface RecentAddressSource {
  recent(chain: string): Promise<readonly { readonly address: string; readonly label: string }[]>;
}

/**
 * Outside reputation (RDAP age, DNS, Safe Browsing ...): optional, bounded by timeouts, cached.
 * A provider is given the entity's type and canonical value and nothing else (no account, no key,
 * no other entity), so nothing but the entity can reach an outside service.
 */
export interface ReputationProvider {
  readonly name: string;
  readonly types: readonly string[];
  /**
   * Findings about the entity (family `reputation`), with the provider as their source; none when
   * the provider knows nothing. Throws or rejects when the provider could not be consulted; the
   * caller records it as unavailable (never as "clean").
   */
  check(entityType: string, value: string, signal: AbortSignal): Promise<readonly import("../detection/types.js").Finding[]>;
}

export interface Clock {
  now(): Date;
  /**
   * A signal that aborts `ms` milliseconds from now: the deadline of the sources a check consults.
   * The clock's owner keeps the time (the system clock: `AbortSignal.timeout`; a test's manual
   * clock: when it is moved past it). A clock without deadlines (a fixed test clock) lets every
   * source take the time it takes.
   */
  deadline?(ms: number): AbortSignal;
}

export interface IdGenerator {
  /** A new id with the given prefix, e.g. `chk_…`. Sortable by creation time. */
  next(prefix: string): string;
}
