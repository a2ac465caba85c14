import { leadSignal, type EntityType, type Verdict } from "@svc/core";
import type { Policy, PolicyLevel } from "./settings.js";

/**
 * Turning screened entities into one decision per message. Pure, so the whole table of
 * (policy × evidence × sender) is tested without a chat.
 */
export interface Assessed {
  readonly entity: { readonly type: EntityType; readonly value: string; readonly id: string };
  readonly verdict: Verdict | null;
  /** The group's blocklist pattern that matched, if any. */
  readonly blockPattern: string | null;
  /** The group approved this entity's domain. */
  readonly allowlisted: boolean;
  /** Markdown/HTML link whose text shows one site while it opens another. */
  readonly linkMismatch: { readonly shown: string } | null;
  /** Screening failed: nothing is concluded from it (never "clean", never "bad"). */
  readonly error: string | null;
}

export interface Finding {
  readonly entity: Assessed["entity"];
  readonly reason: string;
  /** Blocklist hits, critical verdicts and deceptive links are certain enough to say so. */
  readonly strength: "strong" | "normal";
}

export type Action = "none" | "notify" | "delete" | "ban";

export interface Decision {
  readonly action: Action;
  readonly findings: readonly Finding[];
  /** What the policy asked for when the decision was softened, and why. */
  readonly softened: { readonly from: Action; readonly why: string } | null;
}

const FLAGGED_LEVELS = new Set(["high", "critical"]);

/** The reason a flagged verdict quotes: its lead signal (a rule's finding before the model's reading), if it scored. */
export function topSignal(v: Verdict): string | null {
  const lead = leadSignal(v.signals);
  return lead && lead.points > 0 ? lead.message : null;
}

/** Why an entity is flagged, or null when it is not. */
export function assess(a: Assessed): Finding | null {
  if (a.blockPattern !== null) return { entity: a.entity, reason: `matches this group's blocklist pattern "${a.blockPattern}"`, strength: "strong" };
  // An approved domain stays approved even when a link to it is labelled oddly.
  if (a.allowlisted) return null;
  if (a.linkMismatch) {
    return { entity: a.entity, reason: `the link text shows ${a.linkMismatch.shown} but the link opens something else`, strength: "strong" };
  }
  const v = a.verdict;
  if (v && (FLAGGED_LEVELS.has(v.risk_level) || v.recommended_action === "block")) {
    const why = topSignal(v);
    return { entity: a.entity, reason: `${v.risk_level} risk (${v.risk_score}/100)${why ? `: ${why}` : ""}`, strength: v.risk_level === "critical" ? "strong" : "normal" };
  }
  return null;
}

export interface DecideInput {
  readonly assessed: readonly Assessed[];
  readonly policy: Policy;
  /** Per-level policies over `policy`: the most severe finding's level picks the action. */
  readonly policyByLevel?: Readonly<Partial<Record<PolicyLevel, Policy>>>;
  /** Allowlisted users are checked like everyone else (a trusted account can be stolen), but never banned outright. */
  readonly senderTrusted: boolean;
  /** The sender is an admin of the chat: warn, but never delete or ban an admin's message. */
  readonly senderIsAdmin: boolean;
}

export function decide(input: DecideInput): Decision {
  const findings = input.assessed.map(assess).filter((f): f is Finding => f !== null);
  if (findings.length === 0) return { action: "none", findings, softened: null };
  // Strong findings (critical verdicts, blocklist hits, deceptive links) count as critical.
  const level: PolicyLevel = findings.some((f) => f.strength === "strong") ? "critical" : "high";
  const wanted: Action = input.policyByLevel?.[level] ?? input.policy;
  if (input.senderIsAdmin && wanted !== "notify") {
    return { action: "notify", findings, softened: { from: wanted, why: "the sender is an admin" } };
  }
  if (input.senderTrusted && wanted === "ban") {
    return { action: "delete", findings, softened: { from: "ban", why: "the sender is on the allowlist; the account may be compromised" } };
  }
  return { action: wanted, findings, softened: null };
}
