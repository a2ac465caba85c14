import { auditRecordOf, hostAndParents, hostOf, screenEntity, type Entity, type NewGraphEdge, type ScreenRequest, type Screened } from "@svc/core";
import { countCheck } from "@svc/metrics";
import { entityProblem, problem } from "./problem.js";
import type { ApiServices } from "./services.js";
import type { Caller } from "./middleware/auth.js";

/** Screens one entity and commits its audit record (under the request's Idempotency-Key, if any) before answering. */
export async function runCheck(s: ApiServices, caller: Caller, request: ScreenRequest & { entity_value: string }, idempotencyKey?: string): Promise<Screened> {
  const r = await screenEntity(request, s.screening);
  if (!r.ok) throw problem(entityProblem(r.error));
  await record(s, caller, request, r, idempotencyKey);
  return r;
}

export async function record(s: ApiServices, caller: Caller, request: { entity_value: string; type?: string }, r: Screened, idempotencyKey?: string): Promise<void> {
  const v = r.verdict;
  await s.checks.save(auditRecordOf({ accountId: caller.accountId, actor: { key_id: caller.keyId, channel: "api" }, request, screened: r, now: s.clock.now(), ...(idempotencyKey ? { idempotencyKey } : {}) }));
  countCheck("api", r.entity.type, v.risk_level);
  // The account's own graph learns from its checks (never the shared one: what one account
  // screens must not move another's verdicts); not part of the audit trail, so updated after.
  s.background.track(learnGraph(s, caller.accountId, r).catch((e: unknown) => s.logger.warn({ err: e, check: v.id }, "graph update failed")));
}

/**
 * Edges a check reveals: url → its host, e-mail → its domain, each sub-domain → its parent, up
 * to the registered domain; owned by `accountId` (its graph view only).
 */
export function edgesOf(entity: Entity, seenAt: Date, accountId: string): NewGraphEdge[] {
  const edges: NewGraphEdge[] = [];
  const host = hostOf(entity);
  const registered = typeof entity.attributes.registered_domain === "string" ? entity.attributes.registered_domain : null;
  const add = (to: string, relation: string) => edges.push({ from: entity.id, to, relation, weight: 1, source: "checks", seen_at: seenAt, account_id: accountId });
  if (host && entity.type !== "domain") add(`domain:${host}`, entity.type === "url" ? "hosted_on" : "mail_domain");
  if (host) {
    const chain = hostAndParents(host, registered);
    for (let i = 0; i + 1 < chain.length; i++) {
      edges.push({ from: `domain:${chain[i]}`, to: `domain:${chain[i + 1]}`, relation: "subdomain_of", weight: 1, source: "checks", seen_at: seenAt, account_id: accountId });
    }
  }
  return edges;
}

async function learnGraph(s: ApiServices, accountId: string, r: Screened): Promise<void> {
  const v = r.verdict;
  await s.graphLearner.learn(
    [{ id: r.entity.id, type: r.entity.type, value: r.entity.value, risk_score: v.risk_score, risk_level: v.risk_level, account_id: accountId }],
    edgesOf(r.entity, s.clock.now(), accountId),
  );
}
