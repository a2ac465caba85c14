// The learned domain model as a detector: one scored finding (domain.model_risk, its points the
// calibrated probability × 100) and, as plain reasons, the features that pushed it (decision 0023).
import type { Entity } from "../../entities/types.js";
import { describeReason, scoreHost } from "../model/domain-model.js";
import type { HostView } from "../model/features.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";

/** The host a domain, URL or e-mail address names, as the model reads it; null when there is none. */
export function hostView(entity: Entity): HostView | null {
  const a = entity.attributes;
  const host = entity.type === "domain" ? entity.value : entity.type === "url" ? a.host : entity.type === "email" ? a.domain : null;
  if (typeof host !== "string" || typeof a.registered_domain !== "string" || typeof a.public_suffix !== "string") return null;
  return { host, registered: a.registered_domain, suffix: a.public_suffix, tld: typeof a.tld === "string" ? a.tld : "", privateSuffix: a.private_suffix === true };
}

/** Codes of the rule detectors' name findings, with their strength, as model features. */
const RULES = new Map<string, number>();
function ruleFeatures(findings: readonly Finding[]): Map<string, number> {
  const out = RULES;
  out.clear();
  for (const f of findings) {
    if (!f.code.startsWith("domain.") || f.family === "model") continue;
    const s = f.strength ?? 1;
    if (s > (out.get(f.code) ?? 0)) out.set(f.code, s);
  }
  return out;
}

export function domainModelFindings(entity: Entity, findings: readonly Finding[], ref: ReferenceData): Finding[] {
  const reading = modelReading(entity, findings, ref);
  return reading?.finding ? [reading.finding] : [];
}

/** What the model made of a name: its raw output and the finding the check gets (null at score 0). */
export interface ModelReading {
  readonly logit: number;
  readonly probability: number;
  readonly score: number;
  readonly reasons: readonly { readonly feature: string; readonly weight: number }[];
  readonly words: readonly string[];
  readonly finding: Finding | null;
}

/**
 * The model's reading of the host of a domain, URL or e-mail address, given the rule detectors'
 * findings; null when there is no model or no host. (The detector's whole work; its raw output is
 * pinned on a set of names by tools/train/pin.ts, so that its scores stay bit-identical.)
 */
export function modelReading(entity: Entity, findings: readonly Finding[], ref: ReferenceData): ModelReading | null {
  const model = ref.domainModel;
  if (!model) return null;
  const v = hostView(entity);
  if (!v) return null;
  const m = scoreHost(model, v, ruleFeatures(findings));
  const out = { logit: m.logit, probability: m.probability, score: m.score, reasons: m.reasons, words: [...m.words] };
  if (m.score <= 0) return { ...out, finding: null };
  const reasons = [...new Set(m.reasons.map((r) => describeReason(r, m.words)))];
  const src = source(ref, "domain-model");
  return {
    ...out,
    finding: {
      code: "domain.model_risk",
      family: "model",
      message: `Learned name model: scores the name ${m.score} of 100 (calibrated: a scam's name ${Math.round(m.probability * 100)} % of the time where scams and other names are equally common)${reasons.length > 0 ? `, mostly because of ${reasons.slice(0, 3).join("; ")}` : ""}`,
      evidence: { probability: Math.round(m.probability * 1000) / 1000, reasons: m.reasons.map((r) => r.feature), words: [...m.words] },
      source: src,
      strength: m.score / 100,
    },
  };
}
