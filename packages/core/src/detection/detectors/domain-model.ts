// The learned domain model as a detector: one scored finding (domain.model_risk, its points the
// calibrated probability × 100) and, as plain reasons, the features that pushed it (decision 0023).
import type { Entity } from "../../entities/types.js";
import { describeReason, scoreHost, type DomainModel, type ModelScore } from "../model/domain-model.js";
import { platformOf, type HostView } from "../model/features.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";

/** The host a domain, URL or e-mail address names, as the model reads it; null when there is none. */
export function hostView(entity: Entity): HostView | null {
  const a = entity.attributes;
  const host = entity.type === "domain" ? entity.value : entity.type === "url" ? a.host : entity.type === "email" ? a.domain : null;
  if (typeof host !== "string" || typeof a.registered_domain !== "string" || typeof a.public_suffix !== "string") return null;
  return { host, registered: a.registered_domain, suffix: a.public_suffix, tld: typeof a.tld === "string" ? a.tld : "", privateSuffix: a.private_suffix === true };
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
  const m = scoreHost(model, v, findings);
  const words = m.words.slice();
  return { logit: m.logit, probability: m.probability, score: m.score, reasons: m.reasons, words, finding: m.score > 0 ? modelFinding(m, words, model, ref, platformOf(v, model.space)) : null };
}

/** `platform`: the hosting platform a user's site is on, whose top-level domain the site's owner did not choose. */
function modelFinding(m: ModelScore, words: readonly string[], model: DomainModel, ref: ReferenceData, platform: string | null): Finding {
  // The reasons in plain words, each once (two features can read the same: digits, hyphens, length).
  // The reasons said, joined as they are found (as `join("; ")` of them would read).
  let said = "";
  let saidCount = 0;
  let first: string | null = null;
  let second: string | null = null;
  const codes: string[] = [];
  for (const r of m.reasons) {
    codes.push(r.feature);
    const text = platform !== null && r.feature.startsWith("tld:") ? `${platform}'s .${r.feature.slice(4)} top-level domain` : (model.descriptions.get(r.feature) ?? describeReason(r, words));
    if (saidCount >= 3 || text === first || text === second) continue;
    said = saidCount === 0 ? text : `${said}; ${text}`;
    if (saidCount === 0) first = text;
    else second = text;
    saidCount++;
  }
  return {
    code: "domain.model_risk",
    family: "model",
    message: `Learned name model: scores the name ${m.score} of 100 (calibrated: a scam's name ${Math.round(m.probability * 100)} % of the time where scams and other names are equally common)${saidCount > 0 ? `, mostly because of ${said}` : ""}`,
    evidence: { probability: Math.round(m.probability * 1000) / 1000, reasons: codes, words },
    source: source(ref, "domain-model"),
    strength: m.score / 100,
  };
}
