import { parseEntity } from "../entities/parse-entity.js";
import type { Entity, EntityError, EntityType } from "../entities/types.js";
import { graphFindings, reportFindings } from "../detection/detectors/community.js";
import { cryptoGiveawayFindings } from "../detection/detectors/crypto-giveaway.js";
import { domainModelFindings } from "../detection/detectors/domain-model.js";
import { emailFindings } from "../detection/detectors/email.js";
import { intelFindings } from "../detection/detectors/intel.js";
import { freeHostOf, lexicalFindings } from "../detection/detectors/lexical.js";
import { networkFindings } from "../detection/detectors/network.js";
import { phoneFindings } from "../detection/detectors/phone.js";
import { popularSiteFindings } from "../detection/detectors/popular-site.js";
import { userContentFindings } from "../detection/detectors/user-content.js";
import { walletFindings } from "../detection/detectors/wallet.js";
import { detectHandleImpersonation, detectImpersonation, type ImpersonationIndex } from "../detection/impersonation/index.js";
import { readPlatformUrl, type PlatformReading } from "../detection/platform-paths.js";
import { source, type ReferenceData } from "../detection/reference.js";
import { RULESET, type Ruleset } from "../detection/ruleset.js";
import { rulesByCode, scoreFindings } from "../detection/scoring.js";
import { DISCLAIMER, type Family, type Finding, type Signal, type Thresholds, type Verdict } from "../detection/types.js";
import type { Clock, GraphPath, GraphProximitySource, IdGenerator, RecentAddressSource, ReportEvidence, ReportEvidenceSource, ReputationProvider } from "../ports/evidence.js";
import { isSyncIntelStore, type IntelMatch, type IntelStore, type SyncIntelStore } from "../ports/intel.js";

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
  /**
   * The deadline of a check's asynchronous sources, kept by `clock.deadline`: a source slower than
   * this is reported unavailable, never "clean". (Sources held in memory need no deadline.)
   */
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
 * Runs one outside (asynchronous) source until the check's deadline; a failure is an outcome, not
 * an exception. A provider gets the deadline's signal to cancel its own request; a source still
 * pending when it aborts is reported unavailable and its late answer is dropped.
 */
async function consult<T>(name: string, deadline: Deadline, now: () => number, run: (signal: AbortSignal) => Promise<T>): Promise<{ value: T | null; outcome: SourceOutcome }> {
  const started = now();
  try {
    const value = await Promise.race([run(deadline.signal), deadline.expired]);
    return { value, outcome: { source: name, status: "ok", ms: now() - started } };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return { value: null, outcome: { source: name, status: deadline.signal.aborted ? "unavailable" : "error", ms: now() - started, reason } };
  }
}

/**
 * The deadline of one check's sources (they start together, so they share it): the clock's
 * signal, and a promise that rejects when it aborts, raced by every source. One listener per
 * check, taken off when the check is done.
 */
interface Deadline {
  readonly signal: AbortSignal;
  readonly expired: Promise<never>;
  release(): void;
}

function deadlineOf(clock: Clock, timeoutMs: number): Deadline {
  const signal = clock.deadline?.(timeoutMs);
  // A clock that keeps no deadlines: sources take the time they take.
  if (!signal) return { signal: new AbortController().signal, expired: new Promise<never>(() => {}), release: () => {} };
  let onAbort = (): void => {};
  const expired = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error(`timed out after ${timeoutMs} ms`));
  });
  // Rejected with no source left racing it (all answered): not an unhandled rejection.
  expired.catch(() => {});
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { signal, expired, release: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * Screens one entity: parse, gather evidence from the ports (intel, reports, graph, outside
 * providers) with deadlines, run the pure detectors, score. Never throws for bad input; a source
 * that fails is listed as unavailable and lowers confidence, it is never read as "clean".
 */
export function screenEntity(request: ScreenRequest, deps: ScreeningDeps, options: { thresholds?: Thresholds; id?: string } = {}): Promise<ScreenResult> {
  // Not an async function: it would wrap the promise screenParsed returns in a second one, and
  // resolving one promise with another costs two more turns of the microtask queue per check.
  // An exception still arrives as a rejection, as it did.
  try {
    const parsed = parseEntity(request.entity_value, request.type === undefined ? {} : { type: request.type });
    if (!parsed.ok) return Promise.resolve(parsed);
    return screenParsed(parsed.entity, deps, options);
  } catch (e) {
    return Promise.reject(e);
  }
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

/** Redirects followed inside one check (`google.com/url?q=` of `l.facebook.com/l.php?u=` …); deeper nesting is itself a finding. */
export const MAX_REDIRECT_DEPTH = 3;

/**
 * One entity a check looks at: the one asked about, then what it stands for on a platform (the
 * target of an open redirector, the account of a profile URL), each with its own sources.
 */
interface Layer {
  readonly entity: Entity;
  readonly reading: PlatformReading | null;
  /** How the entity was reached from the one before: as a redirect target or as a profile's account. */
  readonly via: "redirect" | "profile" | null;
  /** The target of this layer's redirect could not be read as a web address. */
  readonly unreadable?: string;
  /** This layer redirects further, past MAX_REDIRECT_DEPTH. */
  readonly tooDeep?: boolean;
}

/**
 * The layers of a check. Only a URL on a known platform has more than one; every other entity is
 * one layer with no reading (no work for plain domains).
 */
function layersOf(entity: Entity, ref: ReferenceData): Layer[] {
  if (entity.type !== "url") return [{ entity, reading: null, via: null }];
  const layers: Layer[] = [];
  let current: Entity = entity;
  let via: Layer["via"] = null;
  for (let depth = 0; ; depth++) {
    const reading = readPlatformUrl(current, ref.platforms, platformOf(current, ref));
    if (reading?.kind === "profile") {
      const account = parseEntity(reading.account, { type: "social_account" });
      layers.push({ entity: current, reading, via });
      if (account.ok) layers.push({ entity: account.entity, reading: null, via: "profile" });
      return layers;
    }
    if (reading?.kind !== "redirect") {
      layers.push({ entity: current, reading, via });
      return layers;
    }
    if (depth >= MAX_REDIRECT_DEPTH) {
      layers.push({ entity: current, reading, via, tooDeep: true });
      return layers;
    }
    const target = parseEntity(reading.target, { type: "url" });
    if (!target.ok) {
      layers.push({ entity: current, reading, via, unreadable: target.error.message });
      return layers;
    }
    layers.push({ entity: current, reading, via });
    current = target.entity;
    via = "redirect";
  }
}

/** The free host a URL's site is published on (a user's sub-domain), as the lexical detector reads it. */
function platformOf(entity: Entity, ref: ReferenceData): string | null {
  const a = entity.attributes;
  const registered = typeof a.registered_domain === "string" ? a.registered_domain : null;
  if (!registered) return null;
  return freeHostOf(registered, typeof a.subdomain === "string" ? a.subdomain : "", typeof a.public_suffix === "string" ? a.public_suffix : "", a.private_suffix === true, ref)?.domain ?? null;
}

const inMemoryOnlyFor = (entity: Entity, deps: ScreeningDeps): boolean =>
  isSyncIntelStore(deps.intel) && !deps.reports && !deps.graph && !(entity.type === "wallet" && deps.recentAddresses) && !(deps.providers !== undefined && deps.providers.some((p) => p.types.includes(entity.type)));

/**
 * Screens a parsed entity. When the only source is intel held in memory (the embedded library,
 * the CLI), nothing can be slow or fail late, so the check runs without promises or deadlines;
 * otherwise the sources are consulted concurrently, each with its deadline.
 */
export function screenParsed(entity: Entity, deps: ScreeningDeps, options: { thresholds?: Thresholds; id?: string } = {}): Promise<Screened> {
  const layers = layersOf(entity, deps.reference);
  let inMemoryOnly = true;
  for (const l of layers) inMemoryOnly &&= inMemoryOnlyFor(l.entity, deps);
  if (!inMemoryOnly) return Promise.all(layers.map((l) => gatherFromSources(l.entity, deps))).then((gs) => assemble(layers, deps, options, gs));
  return Promise.resolve(assemble(layers, deps, options, layers.length === 1 ? [gatherInMemory(entity, deps)] : layers.map((l) => gatherInMemory(l.entity, deps))));
}

function gatherInMemory(entity: Entity, deps: ScreeningDeps): Gathered {
  const intel = deps.intel as SyncIntelStore;
  const now = deps.clock.now();
  const started = now.getTime();
  try {
    const value = intel.lookupSync(entity);
    return { intel: { value, outcome: { source: "intel", status: "ok", ms: deps.clock.now().getTime() - started } }, reports: null, graph: null, recent: null, provided: [], intelVersion: intel.versionSync(), at: now };
  } catch (e) {
    return { intel: { value: null, outcome: { source: "intel", status: "error", ms: deps.clock.now().getTime() - started, reason: e instanceof Error ? e.message : String(e) } }, reports: null, graph: null, recent: null, provided: [], intelVersion: "unavailable", at: now };
  }
}

async function gatherFromSources(entity: Entity, deps: ScreeningDeps): Promise<Gathered> {
  const now = deps.clock.now();
  const tick = (): number => deps.clock.now().getTime();
  const deadline = deadlineOf(deps.clock, deps.sourceTimeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS);
  const [intel, reports, graph, recent, ...provided] = await Promise.all([
    consult<readonly IntelMatch[]>("intel", deadline, tick, () => deps.intel.lookup(entity)),
    deps.reports ? consult<ReportEvidence | null>("reports", deadline, tick, () => deps.reports!.forEntity(entity.id, now)) : null,
    deps.graph ? consult<readonly GraphPath[]>("graph", deadline, tick, () => deps.graph!.badNeighbours(entity.id, GRAPH_DEPTH, now)) : null,
    entity.type === "wallet" && deps.recentAddresses
      ? consult("recent-addresses", deadline, tick, () => deps.recentAddresses!.recent(String(entity.attributes.chain ?? "")))
      : null,
    ...(deps.providers ?? []).filter((p) => p.types.includes(entity.type)).map((p) => consult(p.name, deadline, tick, (signal) => p.check(entity.type, entity.value, signal))),
  ]).finally(deadline.release);
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

/** What one layer of a check found: its findings, the families looked at and the sources' outcomes. */
interface Collected {
  readonly findings: Finding[];
  readonly evaluated: string[];
  readonly outcomes: SourceOutcome[];
}

/** The findings of one entity: from the sources gathered for it, and from the pure detectors. */
function collect(layer: Layer, deps: ScreeningDeps, g: Gathered): Collected {
  const { entity, reading } = layer;
  const ref = deps.reference;
  const evaluated: string[] = [];
  const outcomes: SourceOutcome[] = [];
  const findings: Finding[] = [];

  outcomes.push(g.intel.outcome);
  if (g.intel.value) {
    evaluated.push("intel");
    // Where anyone can publish or get a mailbox, the owner's allowlisting does not vouch for the
    // entity; nor does a platform's for a user's page on it, a profile or a redirect (decision 0016).
    // (Most entities are on no list: nothing to judge.)
    if (g.intel.value.length > 0) {
      const notVouched = reading !== null;
      pushAll(findings, intelFindings(g.intel.value, (d) => notVouched || ref.userContentDomains.has(d) || (entity.type === "email" && ref.freeEmail.has(d))));
    }
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
      if (reading === null || (reading.kind === "user_content" && !reading.listed)) {
        pushAll(findings, detectImpersonation(entity, deps.impersonation));
        pushAll(findings, lexicalFindings(entity, ref));
        pushAll(findings, cryptoGiveawayFindings(entity, ref));
        if (entity.type !== "email") {
          pushAll(findings, domainModelFindings(entity, findings, ref));
          pushAll(findings, popularSiteFindings(entity, ref, findings));
        }
      } else {
        // A host in the platform table is a known operator's (nam02.safelinks.protection.outlook.com,
        // cloudflare-ipfs.com): its name is no evidence about the user's page, only how the URL is
        // written is. On a profile the path is the handle, judged as the account, not as lure words.
        for (const f of lexicalFindings(entity, ref)) if (keptOnPlatformHost(f, reading)) findings.push(f);
      }
      evaluated.push("impersonation", "lexical");
      if (ref.domainModel && entity.type !== "email") evaluated.push("model");
      if (entity.type === "email") {
        pushAll(findings, emailFindings(entity, ref));
        evaluated.push("email");
      }
      if (reading) pushAll(findings, platformFindings(layer, deps));
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
  return { findings, evaluated, outcomes };
}

/** Of a known platform host's findings, those about how the URL is written, not about the host's name. */
const keptOnPlatformHost = (f: Finding, reading: PlatformReading): boolean =>
  f.code === "domain.brand_short_domain" || (!f.code.startsWith("domain.") && !(reading.kind === "profile" && f.code === "url.risky_path_keyword"));

/** What a URL on a platform is, as findings: the page is a user's, a profile, or a redirect to elsewhere. */
function platformFindings(layer: Layer, deps: ScreeningDeps): Finding[] {
  const reading = layer.reading;
  const ref = deps.reference;
  const src = source(ref, "platform-paths");
  if (!reading) return [];
  switch (reading.kind) {
    case "user_content":
      return userContentFindings(layer.entity, reading, ref, deps.impersonation);
    case "profile":
      return [{ code: "url.social_profile", family: "social", message: `The profile page of ${reading.account}: judged as that account, not as a page of ${String(layer.entity.attributes.host)}`, evidence: { account: reading.account }, source: src }];
    case "redirect": {
      const evidence = { redirector: reading.redirector, param: reading.param, target: reading.target };
      if (layer.tooDeep) return [{ code: "url.redirect_too_deep", family: "lexical", message: `Redirects through more than ${MAX_REDIRECT_DEPTH} redirectors in a row, a way to hide the destination; the rest was not followed`, evidence, source: src }];
      if (layer.unreadable !== undefined) return [{ code: "url.redirect_unreadable", family: "lexical", message: `${reading.redirector} forwards to something that is not a web address we can check (${layer.unreadable})`, evidence: { ...evidence, reason: layer.unreadable }, source: src }];
      return [{ code: "url.redirect_target", family: "lexical", message: `${reading.redirector} is an open redirector: it forwards to ${reading.target}, which was screened in its place (the verdict is at least as risky as the target's)`, evidence, source: src }];
    }
  }
}

/** A finding of an inner layer, as the outer verdict shows it: said of the redirect target it is about. */
function viaLayer(f: Finding, layer: Layer): Finding {
  if (layer.via !== "redirect") return f;
  const host = typeof layer.entity.attributes.host === "string" ? layer.entity.attributes.host : layer.entity.value;
  return { ...f, message: `Where it leads (${host}): ${f.message}`, evidence: { ...f.evidence, via: layer.entity.value } };
}

/**
 * The pure part of a check: findings from the sources and the detectors, scored into a verdict.
 * A URL that stands for another entity (a redirect's target, a profile's account) gets the
 * findings of every layer scored together: evidence only accumulates, so the verdict is at least
 * as risky as the target's, and the platform's own allowlisting vouches for none of it.
 */
function assemble(layers: readonly Layer[], deps: ScreeningDeps, options: { thresholds?: Thresholds; id?: string }, gs: readonly Gathered[]): Screened {
  const entity = (layers[0] as Layer).entity;
  const g = gs[0] as Gathered;
  const now = g.at;
  const ref = deps.reference;
  const first = collect(layers[0] as Layer, deps, g);
  const { evaluated, outcomes, findings } = first;
  for (let i = 1; i < layers.length; i++) {
    const layer = layers[i] as Layer;
    const inner = collect(layer, deps, gs[i] as Gathered);
    for (const f of inner.findings) findings.push(viaLayer(f, layer));
    for (const e of inner.evaluated) if (!evaluated.includes(e)) evaluated.push(e);
    for (const o of inner.outcomes) outcomes.push(layer.via === null ? o : { ...o, source: `${o.source} (${layer.entity.id})` });
  }

  const unavailable: { source: string; reason: string }[] = [];
  for (const o of outcomes) {
    if (o.status === "ok") continue;
    const reason = o.reason ?? o.status;
    unavailable.push({ source: o.source, reason });
    findings.push({ code: "coverage.source_unavailable", family: "reputation", message: `${o.source} could not be consulted (${reason}); this verdict is missing its evidence`, evidence: { source: o.source, reason }, source: { name: o.source, version: "n/a" } });
  }
  const rs = deps.ruleset ?? RULESET;
  const rules = rulesByCode(rs);
  let risky = false;
  let allowlisted = false;
  for (const f of findings) {
    // The model scores every name: only a score of `medium` or more says something is known.
    if (f.family === "model" ? (f.strength ?? 0) >= 0.3 : (rules.get(f.code)?.points ?? 0) > 0 && (f.strength ?? 1) > 0) risky = true;
    if (f.code === "intel.allowlisted" || f.code === "social.official_handle" || f.code === "domain.popular_site" || f.code === "domain.hosting_platform") allowlisted = true;
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
  // A profile URL is its account: what a check of the account looks at is what this one does.
  const expectedFamilies = EXPECTED[(layers[layers.length - 1] as Layer).via === "profile" ? "social_account" : entity.type];
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
