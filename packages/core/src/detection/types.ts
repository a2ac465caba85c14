import type { AttributeValue, Entity, EntityAttributes } from "../entities/types.js";

export const SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export type RecommendedAction = "allow" | "review" | "block";
export type Confidence = "low" | "medium" | "high";

/** What a signal is about, for people reading it. */
export type SignalCategory =
  | "intel" | "impersonation" | "lexical" | "wallet" | "email" | "network" | "phone" | "social"
  | "reports" | "graph" | "reputation" | "coverage";

/**
 * Independent detector families. Evidence inside one family is correlated and is damped when
 * combined; evidence from different families accumulates. Confidence grows with the number of
 * families that agree. The learned domain model ("model") reads the name evidence of the
 * impersonation and lexical families as its inputs: it is not another vote on top of them, so its
 * score is compared with theirs (the higher wins), not accumulated (decision 0023).
 */
export const FAMILIES = ["intel", "impersonation", "lexical", "wallet", "email", "network", "phone", "social", "reports", "graph", "reputation", "model"] as const;
export type Family = (typeof FAMILIES)[number];

/** Where a signal comes from: a list, a table, a rule set, with its version, so verdicts are reproducible. */
export interface SourceRef {
  readonly name: string;
  readonly version: string;
}

export type Evidence = Readonly<Record<string, AttributeValue>>;

/**
 * What a detector reports: a fact about the entity, without points. The ruleset turns findings
 * into scored signals, so detectors never decide how much a fact weighs.
 */
export interface Finding {
  readonly code: string;
  readonly family: Family;
  readonly message: string;
  readonly evidence: Evidence;
  readonly source: SourceRef;
  /** 0..1: how strongly this instance shows the fact (e.g. closeness of a lookalike). Default 1. */
  readonly strength?: number;
  /** When the underlying evidence was observed (intel entry added, report filed); ISO 8601. */
  readonly observed_at?: string;
  readonly expires_at?: string | null;
}

/** A scored finding, as it appears in a verdict. */
export interface Signal {
  readonly code: string;
  readonly category: SignalCategory;
  readonly severity: Severity;
  readonly points: number;
  readonly message: string;
  readonly source: SourceRef;
  readonly evidence: Evidence;
  readonly observed_at: string;
  readonly expires_at: string | null;
}

export interface Coverage {
  /** Detector families and sources that were consulted. */
  readonly evaluated: readonly string[];
  /** Sources that could not be consulted (timeout, error): never read as "clean". */
  readonly unavailable: readonly { readonly source: string; readonly reason: string }[];
}

export interface Thresholds {
  readonly review: number;
  readonly block: number;
}

export interface Verdict {
  readonly id: string;
  readonly entity: Pick<Entity, "type" | "value" | "input" | "id">;
  readonly risk_score: number;
  readonly risk_level: RiskLevel;
  readonly recommended_action: RecommendedAction;
  readonly confidence: Confidence;
  readonly confidence_score: number;
  readonly signals: readonly Signal[];
  readonly attributes: EntityAttributes;
  readonly coverage: Coverage;
  readonly policy: { readonly ruleset: string; readonly thresholds: Thresholds };
  readonly evaluated_at: string;
  readonly expires_at: string;
  readonly disclaimer: string;
}

export const DISCLAIMER = "Automated risk indicator for information only; not legal, financial or investment advice.";
