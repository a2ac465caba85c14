import { DISCLAIMER, hostOf, parseEntity, type RiskLevel, type Verdict } from "@svc/core";
import type { ScreenOutcome, ScreeningPort } from "./ports.js";

const ACTION: Readonly<Record<RiskLevel, Verdict["recommended_action"]>> = { low: "allow", medium: "review", high: "review", critical: "block" };
const LEVEL_SCORE: Readonly<Record<RiskLevel, number>> = { low: 5, medium: 45, high: 75, critical: 95 };

/** A verdict with the given level and one explaining signal, for fakes and examples. */
export function makeVerdict(value: string, level: RiskLevel, message = `${level} risk signal`, score = LEVEL_SCORE[level]): Verdict {
  const p = parseEntity(value);
  const entity = p.ok ? { type: p.entity.type, value: p.entity.value, input: value, id: p.entity.id } : { type: "domain" as const, value, input: value, id: `domain:${value}` };
  const now = "2026-03-02T09:00:00.000Z";
  return {
    id: `chk_fake_${entity.id}`,
    entity,
    risk_score: score,
    risk_level: level,
    recommended_action: ACTION[level],
    confidence: level === "low" ? "low" : "high",
    confidence_score: level === "low" ? 0.2 : 0.9,
    signals:
      level === "low"
        ? [{ code: "coverage.nothing_known", category: "coverage", severity: "info", points: 0, message: "Nothing known about this entity", source: { name: "fake", version: "1" }, evidence: {}, observed_at: now, expires_at: null }]
        : [{ code: "fake.signal", category: "intel", severity: level === "medium" ? "medium" : level, points: score, message, source: { name: "fake", version: "1" }, evidence: {}, observed_at: now, expires_at: null }],
    attributes: {},
    coverage: { evaluated: ["fake"], unavailable: [] },
    policy: { ruleset: "fake", thresholds: { review: 65, block: 85 } },
    evaluated_at: now,
    expires_at: now,
    disclaimer: DISCLAIMER,
  };
}

/**
 * A screening port with fixed answers keyed by canonical entity value (everything unknown is
 * low risk): the outside engine faked so bot behaviour is tested on its own.
 */
export class InMemoryScreening implements ScreeningPort {
  private readonly answers = new Map<string, ScreenOutcome>();
  /** Values screened, in order: lets tests see what reached the engine (entities only). */
  readonly calls: string[] = [];

  set(value: string, level: RiskLevel, message?: string): this {
    const p = parseEntity(value);
    const key = p.ok ? p.entity.value : value;
    this.answers.set(key, makeVerdict(value, level, message));
    return this;
  }

  fail(value: string, code = "screening.unavailable", message = "The screening engine did not answer."): this {
    const p = parseEntity(value);
    this.answers.set(p.ok ? p.entity.value : value, { error: { code, message } });
    return this;
  }

  async screen(value: string): Promise<ScreenOutcome> {
    this.calls.push(value);
    const p = parseEntity(value);
    if (!p.ok) return { error: { code: p.error.code, message: p.error.message } };
    const direct = this.answers.get(p.entity.value);
    if (direct) return direct;
    // Like the real engine, a URL is judged by its host when nothing is known about the URL itself.
    const host = hostOf(p.entity);
    const byHost = host !== null && host !== p.entity.value ? this.answers.get(host) : undefined;
    if (byHost) return "error" in byHost ? byHost : { ...byHost, entity: { type: p.entity.type, value: p.entity.value, input: value, id: p.entity.id } };
    return makeVerdict(value, "low");
  }
}
