/**
 * The signal a one-line summary quotes (a CSV's `top_reason`, a chat bot's "why"): the strongest,
 * except that the learned name model's reading gives way to a rule's own finding of at least
 * `LEAD_RULE_POINTS`. The model's message names letter patterns and rule codes; the rule's names
 * the brand, the lure word or the list (decision 0102). Scores are untouched: this only chooses
 * which message leads.
 */
export const LEAD_RULE_POINTS = 30;

/** Codes whose message is a reading of the whole name, not one finding. */
const READINGS: ReadonlySet<string> = new Set(["domain.model_risk"]);

export function leadSignal<S extends { readonly code: string; readonly points: number }>(signals: readonly S[]): S | null {
  let strongest: S | null = null;
  let rule: S | null = null;
  for (const s of signals) {
    if (!strongest || s.points > strongest.points) strongest = s;
    if (!READINGS.has(s.code) && s.points >= LEAD_RULE_POINTS && (!rule || s.points > rule.points)) rule = s;
  }
  return rule ?? strongest;
}
