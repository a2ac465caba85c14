// Fits the finding weights of the ruleset on the DEV split only (DESIGN.md §5, "Weights are fitted,
// not guessed").
//   npx tsx tools/eval/fit.ts           fit, compare, print; rewrites the fit section of docs/detection.md
//   npx tsx tools/eval/fit.ts --write   … and writes the fitted points into packages/core/src/detection/ruleset.ts
//                                       (with a new version) when the acceptance rule below holds
//   --keep-severity-class               variant: strong codes (≥ 65) also stay ≥ 65
//   --no-doc                            do not touch docs/detection.md
//
// Model: x_c = the largest strength of finding code c on an example (0 when absent). The probability
// that an example is malicious is P = 1 − exp(−(b + Σ_c w_c x_c)), w_c ≥ 0: a noisy-OR of independent
// causes with p_c = 1 − e^{−w_c}, plus a leak b (phishing with no signal at all) that the ruleset has
// no place for and drops. Fitted by projected gradient descent with backtracking on the class-balanced
// log-likelihood with an L2 penalty; weights map to points = round(100 · (1 − e^{−w})).
//
// Rules: codes with fewer than MIN_SUPPORT dev examples keep their current weight (as a fixed part of
// the model); intel.*, allowlist and coverage codes are not fitted; a code below 65 points (a weak
// signal) stays below 65, so no single weak signal reaches `high` (a box constraint inside the
// projected descent, so correlated codes are fitted knowing the cap); the lexical family cap stays
// ≤ 55. Allowlisted examples are left out of the fit (their score is pinned whatever the weights).
// The fitted ruleset is accepted only if it improves dev ROC AUC and no test target that passes with
// the current ruleset fails with it. No weight is ever set by looking at individual examples.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RULESET, type Rule, type Ruleset } from "@svc/core";
import { buildCorpus, intelRecords, itemsOf } from "./corpus.js";
import { HIGH, MEDIUM, screenItems, summarise, targets, type Row, type Summary, type Target } from "./evaluate.js";
import { pct } from "./metrics.js";
import { mdTable, renderTargets, replaceSection } from "./report.js";

export const MIN_SUPPORT = 20;
/** Highest points a weak code (below 65 in the current ruleset) may be given. */
export const WEAK_MAX = 64;
export const L2 = 1e-3;
const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const RULESET_FILE = join(ROOT, "packages", "core", "src", "detection", "ruleset.ts");
const DOC = join(ROOT, "docs", "detection.md");

/** Codes the fit never touches: curated lists, allowlists, coverage notes, info-only rules. */
export function fittable(code: string, rule: Rule | undefined): boolean {
  if (!rule) return false;
  if (code.startsWith("intel.") || code.startsWith("coverage.")) return false;
  if (code === "social.official_handle" || rule.severity === "info") return false;
  return true;
}

export interface Example {
  /** Feature index → value (max strength), only non-zero entries. */
  readonly x: readonly (readonly [number, number])[];
  /** Hazard from codes kept at their current weight. */
  readonly fixed: number;
  readonly y: 0 | 1;
  readonly weight: number;
}

export const toWeight = (points: number): number => (points <= 0 ? 0 : -Math.log(1 - Math.min(points, 99.9) / 100));
export const toPoints = (w: number): number => Math.round(100 * (1 - Math.exp(-w)));

/** Class-balanced mean negative log-likelihood + L2, and its gradient. θ[0] is the leak b. */
export function objective(theta: readonly number[], data: readonly Example[], l2: number): { loss: number; grad: number[] } {
  const grad = new Array<number>(theta.length).fill(0);
  let loss = 0;
  let total = 0;
  for (const e of data) {
    let s = (theta[0] as number) + e.fixed;
    for (const [j, v] of e.x) s += (theta[j] as number) * v;
    total += e.weight;
    // y=1: −log(1 − e^{−s}); y=0: s.  d/ds: y=1: −1/(e^s − 1); y=0: 1.
    const d = e.y === 1 ? -1 / Math.expm1(s) : 1;
    loss += e.weight * (e.y === 1 ? -Math.log(-Math.expm1(-s)) : s);
    grad[0] = (grad[0] as number) + e.weight * d;
    for (const [j, v] of e.x) grad[j] = (grad[j] as number) + e.weight * d * v;
  }
  loss /= total;
  for (let j = 0; j < grad.length; j++) grad[j] = (grad[j] as number) / total;
  for (let j = 1; j < theta.length; j++) {
    loss += 0.5 * l2 * (theta[j] as number) ** 2;
    grad[j] = (grad[j] as number) + l2 * (theta[j] as number);
  }
  return { loss, grad };
}

const MIN_LEAK = 1e-4;

/**
 * Projected gradient descent with backtracking (Armijo on the projected step). The feasible set is
 * the box 0 ≤ w_j ≤ upper[j] (the policy caps live inside the fit, so correlated codes can make up
 * for a capped one), and b ≥ a tiny leak.
 */
export function fitWeights(data: readonly Example[], k: number, l2 = L2, upper: readonly number[] = [], maxIter = 20_000, lower: readonly number[] = []): { theta: number[]; loss: number; iterations: number } {
  const project = (theta: number[]): number[] => theta.map((t, j) => (j === 0 ? Math.max(MIN_LEAK, t) : Math.min(upper[j - 1] ?? Infinity, Math.max(lower[j - 1] ?? 0, t))));
  let theta = project([0.1, ...new Array<number>(k).fill(0.1)]);
  let { loss, grad } = objective(theta, data, l2);
  let step = 1;
  let it = 0;
  for (; it < maxIter; it++) {
    let accepted = false;
    for (let tries = 0; tries < 60; tries++) {
      const next = project(theta.map((t, j) => t - step * (grad[j] as number)));
      const d = next.map((t, j) => t - (theta[j] as number));
      const r = objective(next, data, l2);
      const lin = d.reduce((acc, dj, j) => acc + dj * (grad[j] as number), 0);
      const sq = d.reduce((acc, dj) => acc + dj * dj, 0);
      if (Number.isFinite(r.loss) && r.loss <= loss + lin + sq / (2 * step)) {
        const moved = Math.sqrt(sq);
        theta = next;
        const improvement = loss - r.loss;
        loss = r.loss;
        grad = r.grad;
        step *= 1.5;
        accepted = true;
        if (moved < 1e-9 || improvement < 1e-13) return { theta, loss, iterations: it + 1 };
        break;
      }
      step /= 2;
    }
    if (!accepted) break;
  }
  return { theta, loss, iterations: it };
}

export interface FitResult {
  readonly codes: readonly { code: string; malicious: number; legit: number; old: number; fitted: number | null; weight: number | null; final: number; note: string }[];
  readonly leak: number;
  readonly loss: number;
  readonly iterations: number;
  readonly ruleset: Ruleset;
}

export function nextVersion(v: string): string {
  const m = /^(.*\.)(\d+)$/.exec(v);
  return m ? `${m[1]}${Number(m[2]) + 1}` : `${v}.1`;
}

/** Fits on dev rows screened with the current ruleset (findings do not depend on the weights). */
export interface FitOptions {
  /**
   * Also keep strong codes (≥ 65 now) at ≥ 65: the fit moves weights only within their severity
   * class. Not the default; a variant for when the corpus cannot speak for most brands.
   */
  readonly keepSeverityClass?: boolean;
}

export function fit(dev: readonly Row[], current: Ruleset = RULESET, options: FitOptions = {}): FitResult {
  const rows = dev.filter((r) => !r.allowlisted && !r.intelHit);
  const support = new Map<string, { malicious: number; legit: number }>();
  for (const r of rows) {
    for (const code of new Set(r.findings.filter((f) => f.strength > 0).map((f) => f.code))) {
      const s = support.get(code) ?? { malicious: 0, legit: 0 };
      if (r.malicious) s.malicious++;
      else s.legit++;
      support.set(code, s);
    }
  }
  const codes = [...support.keys()].filter((c) => fittable(c, current.rules[c])).sort();
  const free = codes.filter((c) => {
    const s = support.get(c) as { malicious: number; legit: number };
    return s.malicious + s.legit >= MIN_SUPPORT;
  });
  const index = new Map(free.map((c, i) => [c, i + 1]));
  const nPos = rows.filter((r) => r.malicious).length;
  const nNeg = rows.length - nPos;
  const data: Example[] = rows.map((r) => {
    const x = new Map<number, number>();
    let fixed = 0;
    const maxStrength = new Map<string, number>();
    for (const f of r.findings) maxStrength.set(f.code, Math.max(maxStrength.get(f.code) ?? 0, Math.min(1, Math.max(0, f.strength))));
    for (const [code, v] of maxStrength) {
      const j = index.get(code);
      if (j !== undefined) x.set(j, v);
      else if (codes.includes(code)) fixed += toWeight(current.rules[code]?.points ?? 0) * v;
    }
    return { x: [...x], fixed, y: r.malicious ? 1 : 0, weight: r.malicious ? rows.length / (2 * nPos) : rows.length / (2 * nNeg) };
  });
  // Policy inside the fit: a weak code (below 65 points now) may not reach 65.
  const upper = free.map((c) => ((current.rules[c]?.points ?? 0) < 65 ? toWeight(WEAK_MAX) : Infinity));
  const lower = free.map((c) => (options.keepSeverityClass && (current.rules[c]?.points ?? 0) >= 65 ? toWeight(65) + 1e-6 : 0));
  const { theta, loss, iterations } = fitWeights(data, free.length, L2, upper, 20_000, lower);

  const rules: Record<string, Rule> = { ...current.rules };
  const table: FitResult["codes"][number][] = [];
  for (const code of codes) {
    const rule = current.rules[code] as Rule;
    const s = support.get(code) as { malicious: number; legit: number };
    const j = index.get(code);
    if (j === undefined) {
      table.push({ code, ...s, old: rule.points, fitted: null, weight: null, final: rule.points, note: `kept: < ${MIN_SUPPORT} dev examples` });
      continue;
    }
    const w = theta[j] as number;
    const fitted = toPoints(w);
    const final = rule.points < 65 ? Math.min(WEAK_MAX, fitted) : fitted;
    const note = rule.points < 65 && w >= toWeight(WEAK_MAX) - 1e-9 ? `at the bound ${WEAK_MAX}: a weak signal must not reach high alone` : rule.points >= 65 && options.keepSeverityClass && w <= toWeight(65) + 1e-5 ? "at the bound 65 (--keep-severity-class)" : "";
    rules[code] = { ...rule, points: final };
    table.push({ code, ...s, old: rule.points, fitted, weight: w, final, note });
  }
  const familyCaps = { ...current.familyCaps, lexical: Math.min(55, current.familyCaps.lexical ?? 55) };
  return { codes: table, leak: theta[0] as number, loss, iterations, ruleset: { ...current, version: nextVersion(current.version), rules, familyCaps } };
}

/** Rewrites the points of the given rules and the version in ruleset.ts, touching nothing else. */
export function writeRuleset(file: string, from: Ruleset, to: Ruleset): void {
  let text = readFileSync(file, "utf8");
  const version = `version: "${from.version}"`;
  if (!text.includes(version)) throw new Error(`${file}: ${version} not found`);
  text = text.replace(version, `version: "${to.version}"`);
  for (const [code, rule] of Object.entries(to.rules)) {
    if (from.rules[code]?.points === rule.points) continue;
    const re = new RegExp(`("${code.replaceAll(".", "\\.")}": \\{ points: )\\d+`);
    if (!re.test(text)) throw new Error(`${file}: rule ${code} not found`);
    text = text.replace(re, `$1${rule.points}`);
  }
  const caps = Object.entries(to.familyCaps).filter(([f, v]) => from.familyCaps[f as keyof typeof from.familyCaps] !== v);
  if (caps.length > 0) throw new Error(`familyCaps changed (${caps.map(([f]) => f).join(", ")}); not written automatically`);
  writeFileSync(file, text);
}

function compare(label: string, dev: Summary, test: Summary): (string | number)[] {
  const set = (s: Summary, name: string, which: "atMedium" | "atHigh"): string => pct(s.sets.find((x) => x.set === name)?.[which] ?? null, 2);
  return [
    label,
    dev.auc?.toFixed(3) ?? "–",
    test.auc?.toFixed(3) ?? "–",
    pct(dev.high.recall),
    pct(test.high.recall),
    pct(test.medium.recall),
    set(test, "top-sites", "atMedium"),
    set(test, "eth-whitelist", "atHigh"),
    set(test, "free-mail", "atHigh"),
    pct(test.high.precision),
  ];
}

async function main(): Promise<void> {
  const writeFile = process.argv.includes("--write");
  const corpus = buildCorpus();
  const intel = intelRecords(corpus);
  const devItems = itemsOf(corpus, "dev");
  const testItems = itemsOf(corpus, "test");
  const devOld = await screenItems(devItems, intel);
  const keepSeverityClass = process.argv.includes("--keep-severity-class");
  const result = fit(devOld, RULESET, { keepSeverityClass });
  const testOld = await screenItems(testItems, intel);
  const devNew = await screenItems(devItems, intel, result.ruleset);
  const testNew = await screenItems(testItems, intel, result.ruleset);
  const [sdo, sto, sdn, stn] = [summarise(devOld), summarise(testOld), summarise(devNew), summarise(testNew)];
  const tOld = targets(testOld);
  const tNew = targets(testNew);

  const broken = tNew.filter((t, i) => !t.pass && (tOld[i] as Target).pass);
  const improves = (sdn.auc ?? 0) > (sdo.auc ?? 0);
  const accepted = improves && broken.length === 0;
  const why = accepted
    ? `met: dev ROC AUC ${sdo.auc?.toFixed(3)} → ${sdn.auc?.toFixed(3)}, and no test target that passed fails`
    : `not met: ${[!improves ? `dev ROC AUC does not improve (${sdo.auc?.toFixed(3)} → ${sdn.auc?.toFixed(3)})` : "", broken.length > 0 ? `it breaks test target(s): ${broken.map((t) => t.name).join("; ")}` : ""].filter(Boolean).join("; ")}`;

  const body = [
    `Generated by \`npx tsx tools/eval/fit.ts${writeFile ? " --write" : ""}${keepSeverityClass ? " --keep-severity-class" : ""}\` from ruleset \`${RULESET.version}\` on the dev split (${devOld.length} domains; ${devOld.filter((r) => r.allowlisted).length} allowlisted left out). Do not edit by hand.`,
    "",
    `Projected gradient descent: ${result.iterations} iterations, class-balanced loss ${result.loss.toFixed(4)}, L2 ${L2}, leak b = ${result.leak.toFixed(3)} (P = ${pct(1 - Math.exp(-result.leak))} for a domain with no signal; not part of the ruleset).`,
    "",
    mdTable(
      ["code", "dev malicious", "dev legitimate", "current points", "fitted w", "fitted points", "proposed", "note"],
      result.codes.map((c) => [c.code, c.malicious, c.legit, c.old, c.weight === null ? "–" : c.weight.toFixed(3), c.fitted ?? "–", c.final, c.note]),
    ),
    "",
    mdTable(
      ["ruleset", "dev AUC", "test AUC", `dev recall ≥ ${HIGH}`, `test recall ≥ ${HIGH}`, `test recall ≥ ${MEDIUM}`, `test top-sites ≥ ${MEDIUM}`, `test whitelist FPR ≥ ${HIGH}`, `test free-mail FPR ≥ ${HIGH}`, `test precision ≥ ${HIGH}`],
      [compare(`current ${RULESET.version}`, sdo, sto), compare(`fitted ${result.ruleset.version}`, sdn, stn)],
    ),
    "",
    `Test targets with the current ruleset:\n\n${renderTargets(tOld)}\n\nTest targets with the fitted ruleset:\n\n${renderTargets(tNew)}`,
    "",
    `**Acceptance rule: ${why}.**${accepted ? (writeFile ? ` Written to packages/core/src/detection/ruleset.ts as version ${result.ruleset.version}.` : " This run did not write it (no --write); see the Summary at the top of docs/detection.md for the decision.") : " packages/core/src/detection/ruleset.ts left unchanged."}`,
  ].join("\n");
  console.log(body);
  if (accepted && writeFile) {
    writeRuleset(RULESET_FILE, RULESET, result.ruleset);
    console.log(`\nwrote ${RULESET_FILE}; now run: npx tsx tools/eval/main.ts`);
  }
  if (writeFile || !process.argv.includes("--no-doc")) replaceSection(DOC, `GENERATED tools/eval/fit.ts${keepSeverityClass ? " --keep-severity-class" : ""}`, body);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
