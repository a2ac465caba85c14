import { parseEntity } from "../entities/parse-entity.js";
import type { Entity, EntityError, EntityType } from "../entities/types.js";
import { graphFindings, reportFindings } from "../detection/detectors/community.js";
import { cryptoGiveawayFindings } from "../detection/detectors/crypto-giveaway.js";
import { emailFindings } from "../detection/detectors/email.js";
import { intelFindings } from "../detection/detectors/intel.js";
import { lexicalFindings } from "../detection/detectors/lexical.js";
import { networkFindings } from "../detection/detectors/network.js";
import { phoneFindings } from "../detection/detectors/phone.js";
import { walletFindings } from "../detection/detectors/wallet.js";
import { detectHandleImpersonation, detectImpersonation, type ImpersonationIndex } from "../detection/impersonation/index.js";
import type { ReferenceData } from "../detection/reference.js";
import { RULESET, type Ruleset } from "../detection/ruleset.js";
import { scoreFindings } from "../detection/scoring.js";
import { DISCLAIMER, type Family, type Finding, type Signal, type Thresholds, type Verdict } from "../detection/types.js";
import type { Clock, GraphPath, GraphProximitySource, IdGenerator, RecentAddressSource, ReportEvidence, ReportEvidenceSource, ReputationProvider } from "../ports/evidence.js";
import { isSyncIntelStore, type IntelMatch, type IntelStore } from "../ports/intel.js";

export interface ScreeningDeps {
  readonly reference: ReferenceData;
  readonly impersonation: ImpersonationIndex;
  readonly intel: IntelStore;
  readonly reports?: ReportEvidenceSource;
  readonly graph?: GraphProximitySource;
  readonly recentAddresses?: RecentAddressSource;
  readonly providers?: readonly ReputationProvider[];
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly ruleset?: Ruleset;
  /** Per outside source; a source slower than this is reported unavailable, never "clean". */
  readonly sourceTimeoutMs?: number;
}

export interface ScreenRequest {
  readonly entity_value: unknown;
  readonly type?: EntityType | string;
}

export interface SourceOutcome {
  readonly source: string;
  readonly status: "ok" | "unavailable" | "error";
  readonly ms: number;
  readonly reason?: string;
}

export interface Screened {
  readonly ok: true;
  readonly verdict: Verdict;
  readonly entity: Entity;
  /** Every finding before scoring, for audit records. */
  readonly findings: readonly Finding[];
  /** Every scored signal, zero-point ones included (the verdict may list fewer): for audit records. */
  readonly signals: readonly Signal[];
  readonly source_outcomes: readonly SourceOutcome[];
  readonly data_versions: Readonly<Record<string, string>>;
}

export type ScreenResult = Screened | { readonly ok: false; readonly error: EntityError };

const GRAPH_DEPTH = 3;
const VERDICT_TTL_MS = 24 * 3_600_000;
const DEFAULT_SOURCE_TIMEOUT_MS = 2_000;

const EXPECTED: Readonly<Record<EntityType, readonly Family[]>> = {
  domain: ["intel", "impersonation", "lexical", "reports", "graph", "reputation"],
  url: ["intel", "impersonation", "lexical", "reports", "graph", "reputation"],
  email: ["intel", "impersonation", "lexical", "email", "reports", "graph", "reputation"],
  wallet: ["intel", "wallet", "reports", "graph", "reputation"],
  ip_address: ["intel", "network", "reports", "graph", "reputation"],
  phone: ["intel", "phone", "reports", "graph", "reputation"],
  social_account: ["intel", "social", "reports", "graph", "reputation"],
};

/**
 * Deadlines of the sources being consulted, watched by one timer for all of them: a check asks
 * three or four sources, and a timer plus an AbortController per source cost more than the
 * in-memory lookups they guard. The sweep runs every DEADLINE_SWEEP_MS while anything waits, so
 * a deadline fires up to that much late; the timer never keeps a process alive.
 */
const DEADLINE_SWEEP_MS = 20;
interface Deadline { readonly at: number; fire(): void }
const deadlines = new Set<Deadline>();
let sweeper: ReturnType<typeof setInterval> | null = null;

function watchDeadline(d: Deadline): void {
  deadlines.add(d);
  if (sweeper !== null) return;
  sweeper = setInterval(() => {
    const t = Date.now();
    for (const w of deadlines) {
      if (w.at <= t) {
        deadlines.delete(w);
        w.fire();
      }
    }
    if (deadlines.size === 0 && sweeper !== null) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }, DEADLINE_SWEEP_MS);
  (sweeper as { unref?: () => void }).unref?.();
}

/** Given to sources that take no signal of their own: it never aborts. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * Runs one outside (asynchronous) source with a deadline; a failure is an outcome, not an
 * exception. `cancellable` sources (outside providers) get a signal that aborts at the deadline.
 */
async function consult<T>(name: string, timeoutMs: number, now: () => number, run: (signal: AbortSignal) => Promise<T>, cancellable = false): Promise<{ value: T | null; outcome: SourceOutcome }> {
  const started = now();
  const controller = cancellable ? new AbortController() : null;
  let timedOut = false;
  try {
    const value = await new Promise<T>((resolve, reject) => {
      const deadline: Deadline = {
        at: Date.now() + timeoutMs,
        fire: () => {
          timedOut = true;
          controller?.abort();
          reject(new Error(`timed out after ${timeoutMs} ms`));
        },
      };
      watchDeadline(deadline);
      const settle = (): void => void deadlines.delete(deadline);
      let pending: Promise<T>;
      try {
        pending = run(controller?.signal ?? NEVER_ABORTED);
      } catch (e) {
        settle();
        reject(e);
        return;
      }
      pending.then((v) => { settle(); resolve(v); }, (e: unknown) => { settle(); reject(e); });
    });
    return { value, outcome: { source: name, status: "ok", ms: now() - started } };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return { value: null, outcome: { source: name, status: timedOut ? "unavailable" : "error", ms: now() - started, reason } };
  }
}

/**
 * Screens one entity: parse, gather evidence from the ports (intel, reports, graph, outside
 * providers) with deadlines, run the pure detectors, score. Never throws for bad input; a source
 * that fails is listed as unavailable and lowers confidence, it is never read as "clean".
 */
export async function screenEntity(request: ScreenRequest, deps: ScreeningDeps, options: { thresholds?: Thresholds; id?: string } = {}): Promise<ScreenResult> {
  const parsed = parseEntity(request.entity_value, request.type === undefined ? {} : { type: request.type });
  if (!parsed.ok) return parsed;
  return screenParsed(parsed.entity, deps, options);
}

/** What the sources said, before the pure detectors run. */
interface Gathered {
  readonly intel: { value: readonly IntelMatch[] | null; outcome: SourceOutcome };
  readonly reports: { value: ReportEvidence | null; outcome: SourceOutcome } | null;
  readonly graph: { value: readonly GraphPath[] | null; outcome: SourceOutcome } | null;
  readonly recent: { value: readonly { address: string; label: string }[] | null; outcome: SourceOutcome } | null;
  readonly provided: readonly { value: Finding[] | null; outcome: SourceOutcome }[];
  readonly intelVersion: string;
  /** When the check started: the verdict's `evaluated_at`. */
  readonly at: Date;
}

/**
 * Screens a parsed entity. When the only source is intel held in memory (the embedded library,
 * the CLI), nothing can be slow or fail late, so the check runs without promises or deadlines;
 * otherwise the sources are consulted concurrently, each with its deadline.
 */
export function screenParsed(entity: Entity, deps: ScreeningDeps, options: { thresholds?: Thresholds; id?: string } = {}): Promise<Screened> {
  const intel = deps.intel;
  const inMemoryOnly = isSyncIntelStore(intel) && !deps.reports && !deps.graph && !(entity.type === "wallet" && deps.recentAddresses) && !(deps.providers ?? []).some((p) => p.types.includes(entity.type));
  if (!inMemoryOnly) return gatherFromSources(entity, deps).then((g) => assemble(entity, deps, options, g));
  const now = deps.clock.now();
  const started = now.getTime();
  let gathered: Gathered;
  try {
    const value = intel.lookupSync(entity);
    gathered = { intel: { value, outcome: { source: "intel", status: "ok", ms: deps.clock.now().getTime() - started } }, reports: null, graph: null, recent: null, provided: [], intelVersion: intel.versionSync(), at: now };
  } catch (e) {
    gathered = { intel: { value: null, outcome: { source: "intel", status: "error", ms: deps.clock.now().getTime() - started, reason: e instanceof Error ? e.message : String(e) } }, reports: null, graph: null, recent: null, provided: [], intelVersion: "unavailable", at: now };
  }
  return Promise.resolve(assemble(entity, deps, options, gathered));
}

async function gatherFromSources(entity: Entity, deps: ScreeningDeps): Promise<Gathered> {
  const now = deps.clock.now();
  const tick = (): number => deps.clock.now().getTime();
  const timeout = deps.sourceTimeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS;
  const [intel, reports, graph, recent, ...provided] = await Promise.all([
    consult<readonly IntelMatch[]>("intel", timeout, tick, () => deps.intel.lookup(entity)),
    deps.reports ? consult<ReportEvidence | null>("reports", timeout, tick, () => deps.reports!.forEntity(entity.id, now)) : null,
    deps.graph ? consult<readonly GraphPath[]>("graph", timeout, tick, () => deps.graph!.badNeighbours(entity.id, GRAPH_DEPTH)) : null,
    entity.type === "wallet" && deps.recentAddresses
      ? consult("recent-addresses", timeout, tick, () => deps.recentAddresses!.recent(String(entity.attributes.chain ?? "")))
      : null,
    ...(deps.providers ?? []).filter((p) => p.types.includes(entity.type)).map((p) => consult(p.name, timeout, tick, (signal) => p.check(entity.type, entity.value, signal), true)),
  ]);
  const intelVersion = intel.outcome.status === "ok" ? await deps.intel.version().catch(() => "unavailable") : "unavailable";
  return {
    intel,
    reports: reports as Gathered["reports"],
    graph: graph as Gathered["graph"],
    recent: recent as Gathered["recent"],
    provided: provided as unknown as Gathered["provided"],
    intelVersion,
    at: now,
  };
}

/** The pure part of a check: findings from the sources and the detectors, scored into a verdict. */
function assemble(entity: Entity, deps: ScreeningDeps, options: { thresholds?: Thresholds; id?: string }, g: Gathered): Screened {
  const now = g.at;
  const ref = deps.reference;
  const evaluated: string[] = [];
  const outcomes: SourceOutcome[] = [];
  const findings: Finding[] = [];

  outcomes.push(g.intel.outcome);
  if (g.intel.value) {
    evaluated.push("intel");
    // Where anyone can publish or get a mailbox, the owner's allowlisting does not vouch for the entity.
    // (Most entities are on no list: nothing to judge.)
    if (g.intel.value.length > 0) pushAll(findings, intelFindings(g.intel.value, (d) => ref.userContentDomains.has(d) || (entity.type === "email" && ref.freeEmail.has(d))));
  }
  if (g.reports) {
    outcomes.push(g.reports.outcome);
    if (g.reports.outcome.status === "ok") {
      evaluated.push("reports");
      pushAll(findings, reportFindings(g.reports.value));
    }
  }
  if (g.graph) {
    outcomes.push(g.graph.outcome);
    if (g.graph.outcome.status === "ok") {
      evaluated.push("graph");
      pushAll(findings, graphFindings(g.graph.value ?? []));
    }
  }
  if (g.recent) outcomes.push(g.recent.outcome);
  const recentAddresses = g.recent?.outcome.status === "ok" ? (g.recent.value ?? []) : [];
  for (const p of g.provided) {
    outcomes.push(p.outcome);
    if (p.outcome.status === "ok") {
      if (!evaluated.includes("reputation")) evaluated.push("reputation");
      pushAll(findings, p.value ?? []);
    }
  }

  // The pure detectors: always available.
  switch (entity.type) {
    case "domain":
    case "url":
    case "email":
      pushAll(findings, detectImpersonation(entity, deps.impersonation));
      pushAll(findings, lexicalFindings(entity, ref));
      pushAll(findings, cryptoGiveawayFindings(entity, ref));
      evaluated.push("impersonation", "lexical");
      if (entity.type === "email") {
        pushAll(findings, emailFindings(entity, ref));
        evaluated.push("email");
      }
      break;
    case "wallet":
      pushAll(findings, walletFindings(entity, ref, recentAddresses));
      evaluated.push("wallet");
      break;
    case "ip_address":
      pushAll(findings, networkFindings(entity));
      evaluated.push("network");
      break;
    case "phone":
      pushAll(findings, phoneFindings(entity));
      evaluated.push("phone");
      break;
    case "social_account":
      pushAll(findings, detectHandleImpersonation(entity, deps.impersonation));
      pushAll(findings, lexicalFindings(entity, ref));
      evaluated.push("social");
      break;
  }

  const unavailable: { source: string; reason: string }[] = [];
  for (const o of outcomes) {
    if (o.status === "ok") continue;
    const reason = o.reason ?? o.status;
    unavailable.push({ source: o.source, reason });
    findings.push({ code: "coverage.source_unavailable", family: "reputation", message: `${o.source} could not be consulted (${reason}); this verdict is missing its evidence`, evidence: { source: o.source, reason }, source: { name: o.source, version: "n/a" } });
  }
  const rs = deps.ruleset ?? RULESET;
  let risky = false;
  let allowlisted = false;
  for (const f of findings) {
    if ((rs.rules[f.code]?.points ?? 0) > 0 && (f.strength ?? 1) > 0) risky = true;
    if (f.code === "intel.allowlisted" || f.code === "social.official_handle") allowlisted = true;
  }
  if (!risky && !allowlisted) {
    findings.push({
      code: "coverage.nothing_known",
      family: "intel",
      message: "Nothing known about this entity: no list, report or pattern matched. That is not proof that it is safe.",
      evidence: { evaluated: [...evaluated] },
      source: { name: "svc", version: rs.version },
    });
  }

  const coverage = { evaluated, unavailable };
  const nowIso = evaluatedIso.of(now.getTime());
  const expectedFamilies = EXPECTED[entity.type];
  // (Two literals rather than a spread: this runs on every check.)
  const score = scoreFindings(findings, options.thresholds ? { now, nowIso, coverage, expectedFamilies, ruleset: rs, thresholds: options.thresholds } : { now, nowIso, coverage, expectedFamilies, ruleset: rs });
  const thresholds = options.thresholds ?? rs.thresholds;
  const verdict: Verdict = {
    id: options.id ?? deps.ids.next("chk"),
    entity: { type: entity.type, value: entity.value, input: entity.input, id: entity.id },
    risk_score: score.risk_score,
    risk_level: score.risk_level,
    recommended_action: score.recommended_action,
    confidence: score.confidence,
    confidence_score: score.confidence_score,
    signals: score.signals,
    attributes: entity.attributes,
    coverage,
    policy: { ruleset: rs.version, thresholds },
    evaluated_at: nowIso,
    expires_at: expiresIso.of(now.getTime() + VERDICT_TTL_MS),
    disclaimer: DISCLAIMER,
  };
  return { ok: true, verdict, entity, findings, signals: score.all_signals, source_outcomes: outcomes, data_versions: dataVersions(ref.versions, g.intelVersion) };
}

/** The last `data_versions` built, shared (frozen) while the reference data and intel version stay the same. */
let lastVersions: { readonly ref: Readonly<Record<string, string>>; readonly intel: string; readonly merged: Readonly<Record<string, string>> } | null = null;

function dataVersions(ref: Readonly<Record<string, string>>, intel: string): Readonly<Record<string, string>> {
  if (lastVersions?.ref !== ref || lastVersions.intel !== intel) lastVersions = { ref, intel, merged: Object.freeze({ ...ref, intel }) };
  return lastVersions.merged;
}

/**
 * `new Date(ms).toISOString()`, remembered for the last millisecond asked: checks come dozens to
 * a millisecond, and formatting the date was a measurable part of each.
 */
class IsoCache {
  private ms = Number.NaN;
  private text = "";
  of(ms: number): string {
    if (ms !== this.ms) {
      this.text = new Date(ms).toISOString();
      this.ms = ms;
    }
    return this.text;
  }
}
const evaluatedIso = new IsoCache();
const expiresIso = new IsoCache();

/** `push(...xs)` without spreading arguments. */
function pushAll<T>(into: T[], xs: readonly T[]): void {
  for (let i = 0; i < xs.length; i++) into.push(xs[i] as T);
}
