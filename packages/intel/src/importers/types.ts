/** One entry of an imported intel list. Values are trimmed and lower-cased, not canonicalised: @svc/core does that. */
export interface IntelRecord {
  readonly value: string;
  /** Entity type when the source says it (CSV `type` column, or the importer's `type` option). */
  readonly type?: string;
  readonly list: "allow" | "block";
  readonly label?: string;
  readonly source: string;
}

export interface SkippedLine {
  /** 1-based line of the input (for JSON sources: 1-based position in the array the reason names; 0 = whole input). */
  readonly line: number;
  readonly reason: string;
}

export interface ImportResult {
  readonly records: IntelRecord[];
  readonly skipped: SkippedLine[];
}

export interface ImportOptions {
  /** Provenance written on every record, e.g. "urlhaus-hosts@2026-11-20". */
  readonly source: string;
  /** Which list the records go to (default "block"). */
  readonly list?: "allow" | "block";
  /** Entity type of every record, when the whole list is of one type. */
  readonly type?: string;
  readonly label?: string;
  /**
   * Keep the case of values. Case is always kept for `type: "wallet"`, because base58 and
   * EIP-55 addresses are case-sensitive.
   */
  readonly preserveCase?: boolean;
}
