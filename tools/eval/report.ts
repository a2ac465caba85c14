// Markdown rendering of evaluation results (printed by the tools and written to docs/detection.md).
import { readFileSync, writeFileSync } from "node:fs";
import { countTable, MALICIOUS_SETS, stableHash, type Corpus } from "./corpus.js";
import { HIGH, MEDIUM, type Row, type Summary, type Target } from "./evaluate.js";
import { pct } from "./metrics.js";

export function mdTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const esc = (c: string | number): string => String(c).replaceAll("|", "\\|");
  return [`| ${headers.join(" | ")} |`, `| ${headers.map((h, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`, ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`)].join("\n");
}

const f3 = (x: number | null): string => (x === null ? "–" : x.toFixed(3));

export function renderCorpus(corpus: Corpus): string {
  const counts = countTable(corpus);
  const sets = Object.keys(counts) as (keyof typeof counts)[];
  const rows = sets.map((s) => {
    const a = corpus.accounting[s];
    const c = counts[s];
    return [s, a.raw, a.unparsable, a.duplicate, a.conflict, a.seenEarlier, a.kept, c.train, c.valid, c.test];
  });
  const sources = Object.entries(corpus.sources).map(([k, v]) => `${k}@${v}`).join(", ");
  return `Sources: ${sources}. Corpus fingerprint \`${corpus.fingerprint}\`.\n\n${mdTable(["set", "raw", "unparsable", "duplicate", "label conflict", "seen earlier", "kept", "train", "valid", "test"], rows)}`;
}

export function renderTargets(ts: readonly Target[]): string {
  return mdTable(["target (test split)", "measured", "result"], ts.map((t) => [t.name, t.value, t.pass ? "PASS" : "FAIL"]));
}

export function renderSummary(s: Summary): string {
  const parts: string[] = [];
  parts.push(
    mdTable(
      ["all domains", "value"],
      [
        ["examples (malicious / legitimate; allowlisted or popular left out)", `${s.malicious} / ${s.legit} (${s.allowlisted})`],
        ["ROC AUC", f3(s.auc)],
        [`precision at ≥ ${MEDIUM} (medium)`, pct(s.medium.precision)],
        [`recall at ≥ ${MEDIUM}`, pct(s.medium.recall)],
        [`false-positive rate at ≥ ${MEDIUM}`, pct(s.medium.fpr, 2)],
        [`precision at ≥ ${HIGH} (high)`, pct(s.high.precision)],
        [`recall at ≥ ${HIGH}`, pct(s.high.recall)],
        [`false-positive rate at ≥ ${HIGH}`, pct(s.high.fpr, 2)],
      ],
    ),
  );
  parts.push(
    mdTable(
      ["set (family)", "n measured", `flagged ≥ ${MEDIUM}`, `flagged ≥ ${HIGH}`, "max score", "allowlisted or popular (not in n)"],
      s.sets.map((x) => [x.set + (MALICIOUS_SETS.includes(x.set) ? " (recall)" : " (FPR)"), x.n, pct(x.atMedium, 2), pct(x.atHigh, 2), x.maxScore, x.allowlisted]),
    ),
  );
  parts.push(
    mdTable(
      ["score", "n", "malicious", "fraction malicious", "at equal class sizes"],
      s.calibration.map((b) => [`${b.lo}–${b.hi}`, b.count, b.malicious, pct(b.fraction), pct(b.balanced)]),
    ),
  );
  parts.push(
    mdTable(
      ["family (fires = a finding got points > 0)", "fires on malicious (recall)", "fires on legitimate (FPR)", "precision when it fires", "ROC AUC of its points alone"],
      s.families.map((f) => [f.family, `${f.firedMalicious} (${pct(f.tpr)})`, `${f.firedLegit} (${pct(f.fpr, 2)})`, pct(f.precision), f3(f.auc)]),
    ),
  );
  parts.push(
    mdTable(
      ["TLD or hosting platform", "malicious", `recall ≥ ${HIGH}`, "legitimate", `FPR ≥ ${HIGH}`],
      s.where.map((g) => [g.key, g.malicious, pct(g.recallHigh), g.legit, pct(g.fprHigh, 2)]),
    ),
  );
  return parts.join("\n\n");
}

const signalList = (r: Row): string => (r.signals.length === 0 ? "(none)" : r.signals.map((s) => `${s.code} ${s.points}`).join(", "));

/** The highest-scoring legitimate examples. */
export function worstFalsePositives(rows: readonly Row[], n = 20): Row[] {
  return rows.filter((r) => !r.malicious && !r.allowlisted && r.score > 0).sort((a, b) => b.score - a.score || a.domain.localeCompare(b.domain)).slice(0, n);
}

/** A stable, representative sample of malicious examples below `high` (ordered by hash, not picked by hand). */
export function missedSample(rows: readonly Row[], n = 20): Row[] {
  return rows.filter((r) => r.malicious && r.score < HIGH).sort((a, b) => stableHash(`miss:${a.domain}`) - stableHash(`miss:${b.domain}`)).slice(0, n).sort((a, b) => b.score - a.score || a.domain.localeCompare(b.domain));
}

export function renderExamples(rows: readonly Row[]): string {
  const fps = worstFalsePositives(rows);
  const missed = rows.filter((r) => r.malicious && r.score < HIGH);
  const band = (lo: number, hi: number): number => missed.filter((r) => r.score >= lo && r.score <= hi).length;
  const codeCounts = new Map<string, number>();
  for (const r of missed) for (const s of r.signals) codeCounts.set(s.code, (codeCounts.get(s.code) ?? 0) + 1);
  const topCodes = [...codeCounts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([c, k]) => `${c} (${k})`).join(", ");
  return [
    `**Worst false positives (valid split, ${fps.length} shown, highest score first).**`,
    "",
    mdTable(["domain", "set", "score", "signals (points)"], fps.map((r) => [`\`${r.domain}\``, r.set, r.score, signalList(r)])),
    "",
    `**Missed scams (valid split).** ${missed.length} of ${rows.filter((r) => r.malicious).length} scam domains score below ${HIGH}: ${band(0, 0)} score 0 (no signal at all), ${band(1, MEDIUM - 1)} score 1–${MEDIUM - 1}, ${band(MEDIUM, HIGH - 1)} score ${MEDIUM}–${HIGH - 1}. Most common signals among them: ${topCodes || "none"}. A stable sample of 20 (ordered by a hash of the name, not chosen by hand):`,
    "",
    mdTable(["domain", "score", "signals (points)"], missedSample(rows).map((r) => [`\`${r.domain}\``, r.score, signalList(r)])),
  ].join("\n");
}

/** Replaces the text between `<!-- BEGIN name -->` and `<!-- END name -->` in a file. */
export function replaceSection(path: string, name: string, body: string): void {
  const begin = `<!-- BEGIN ${name} -->`;
  const end = `<!-- END ${name} -->`;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    text = `# Detection quality\n\n${begin}\n${end}\n`;
  }
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) text = `${text.trimEnd()}\n\n${begin}\n${end}\n`;
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  writeFileSync(path, `${text.slice(0, a + begin.length)}\n${body.trim()}\n${text.slice(b)}`);
}
