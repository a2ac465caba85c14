import type { Extraction } from "@svc/core";
import { hostOf } from "@svc/core";
import { code, heading, list, note, text, type Block, type Reply } from "./reply.js";
import { LIMITS, type LearnState } from "./settings.js";

/**
 * Learn mode watches a group before enforcing anything: which domains its members share
 * routinely, and how often the current policy would have acted. Only counts are kept: the
 * registrable domain of each link, never the message around it.
 */
export function startLearn(now: Date, days: number): LearnState {
  return {
    startedAt: now.toISOString(),
    until: new Date(now.getTime() + days * 86_400_000).toISOString(),
    messages: 0,
    messagesWithEntities: 0,
    wouldAct: 0,
    domains: {},
  };
}

function registrable(e: Extraction["entities"][number]["entity"]): string | null {
  const r = e.attributes.registered_domain;
  if (typeof r === "string" && r.length > 0) return r;
  return e.type === "domain" || e.type === "url" ? hostOf(e) : null;
}

export function recordLearn(state: LearnState, extraction: Extraction, wouldAct: boolean): LearnState {
  const domains: Record<string, number> = { ...state.domains };
  const seen = new Set<string>();
  for (const x of extraction.entities) {
    if (x.entity.type !== "domain" && x.entity.type !== "url") continue;
    const d = registrable(x.entity);
    if (d === null || seen.has(d)) continue;
    seen.add(d);
    // Bounded: once full, only domains already counted keep counting (the routine ones are in by then).
    if (domains[d] !== undefined || Object.keys(domains).length < LIMITS.learnDomains) domains[d] = (domains[d] ?? 0) + 1;
  }
  return {
    ...state,
    messages: state.messages + 1,
    messagesWithEntities: state.messagesWithEntities + (extraction.entities.length > 0 ? 1 : 0),
    wouldAct: state.wouldAct + (wouldAct ? 1 : 0),
    domains,
  };
}

/** Domains shared at least `minCount` times, most shared first. */
export function routineDomains(state: LearnState, minCount = 3, max = 15): [domain: string, count: number][] {
  return Object.entries(state.domains)
    .filter(([, n]) => n >= minCount)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max);
}

export function baselineReply(
  state: LearnState,
  opts: { readonly now: Date; readonly ended: boolean; readonly policy: string; readonly suggestions: readonly string[]; readonly allowlistCommand: (d: string) => string; readonly endNote?: string },
): Reply {
  const days = Math.max(0, (opts.now.getTime() - Date.parse(state.startedAt)) / 86_400_000);
  const blocks: Block[] = [
    heading(opts.ended ? "📊 Learning finished: this group's baseline" : "📊 Learning in progress: baseline so far"),
    list([
      `Observed for ${days.toFixed(1)} day(s)${opts.ended ? "" : `, until ${state.until.slice(0, 16).replace("T", " ")} UTC`}`,
      `Messages seen: ${state.messages}, with links or other entities: ${state.messagesWithEntities}`,
      `The "${opts.policy}" policy would have acted on ${state.wouldAct} message(s)`,
    ]),
  ];
  const top = routineDomains(state, 1, 10);
  if (top.length > 0) blocks.push(text("Most shared domains:"), list(top.map(([d, n]) => `${d}: ${n}`)));
  if (opts.suggestions.length > 0) {
    blocks.push(text("Suggested allowlist entries (shared routinely, no risk found):"));
    for (const d of opts.suggestions) blocks.push(code(opts.allowlistCommand(d)));
  } else {
    blocks.push(text("No allowlist suggestions yet: no domain was shared routinely without risk."));
  }
  if (opts.ended) blocks.push(note(opts.endNote ?? "Monitoring is now on."));
  return { blocks };
}
