import type { RiskLevel, Severity, Verdict } from "@svc/core";
import { displayWidth, padEnd, padStart, type Paint } from "../io.js";
import type { Outcome } from "../backend.js";

const LEVEL_STYLE: Readonly<Record<RiskLevel, Parameters<Paint>[0]>> = {
  critical: ["bold", "red"],
  high: "red",
  medium: "yellow",
  low: "green",
};

const SEVERITY_STYLE: Readonly<Record<Severity, Parameters<Paint>[0]>> = {
  critical: ["bold", "red"],
  high: "red",
  medium: "yellow",
  low: "cyan",
  info: "gray",
};

const MARK: Readonly<Record<Severity, string>> = { critical: "▲", high: "▲", medium: "●", low: "●", info: "·" };

export interface TableOptions {
  readonly paint: Paint;
  /** Terminal width; messages are cut to fit it. Undefined (not a terminal): never cut. */
  readonly columns?: number;
}

function cut(text: string, width: number | undefined): string {
  if (width === undefined || displayWidth(text) <= width) return text;
  let out = "";
  for (const ch of text) {
    if (displayWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…`;
}

interface Row {
  readonly input: string;
  readonly outcome: Outcome;
}

/**
 * The readable form of verdicts: one line per entity (score, level, action, confidence) with
 * its reasons under it, strongest first, each with its source. Invalid entities get a line that
 * says why. Meant for people; `--json` is for programs.
 */
export function renderTable(rows: readonly Row[], o: TableOptions): string {
  const { paint } = o;
  const header = ["ENTITY", "TYPE", "RISK", "ACTION", "CONFIDENCE"];
  const cells = rows.map(({ input, outcome }) => {
    if (!outcome.ok) return [input, "—", "invalid", "—", "—"];
    const v = outcome.verdict;
    return [v.entity.value, v.entity.type, `${padStart(String(v.risk_score), 3)} ${v.risk_level}`, v.recommended_action, `${v.confidence} ${v.confidence_score.toFixed(2)}`];
  });
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...cells.map((c) => displayWidth(c[i] ?? ""))));
  const line = (c: readonly string[]): string => c.map((x, i) => (i === c.length - 1 ? x : padEnd(x, widths[i] ?? 0))).join("  ");
  const out: string[] = [paint("bold", line(header))];

  rows.forEach(({ outcome }, r) => {
    const c = cells[r] as string[];
    if (!outcome.ok) {
      out.push(line([c[0] ?? "", paint("gray", c[1] ?? ""), paint("red", padEnd(c[2] ?? "", widths[2] ?? 0)), c[3] ?? "", c[4] ?? ""]));
      out.push(`  ${paint("red", "✗")} ${cut(`${outcome.error.message} (${outcome.error.code})`, o.columns === undefined ? undefined : o.columns - 4)}`);
      out.push("");
      return;
    }
    const v = outcome.verdict;
    out.push(
      [
        paint("bold", padEnd(c[0] ?? "", widths[0] ?? 0)),
        padEnd(c[1] ?? "", widths[1] ?? 0),
        paint(LEVEL_STYLE[v.risk_level], padEnd(c[2] ?? "", widths[2] ?? 0)),
        padEnd(v.recommended_action === "block" ? paint(["bold", "red"], "block") : v.recommended_action === "review" ? paint("yellow", "review") : "allow", widths[3] ?? 0),
        c[4] ?? "",
      ].join("  "),
    );
    out.push(...signalLines(v, o));
    out.push("");
  });
  return out.join("\n");
}

function signalLines(v: Verdict, o: TableOptions): string[] {
  const { paint } = o;
  const signals = [...v.signals].sort((a, b) => b.points - a.points);
  const out = signals.map((s) => {
    const points = s.points > 0 ? `+${s.points}` : s.points < 0 ? String(s.points) : "0";
    const head = `  ${MARK[s.severity]} ${padEnd(s.severity, 8)} ${padStart(points, 4)}  `;
    const src = `  [${s.source.name} ${s.source.version}]`;
    const room = o.columns === undefined ? undefined : Math.max(20, o.columns - displayWidth(head) - displayWidth(src));
    return paint(SEVERITY_STYLE[s.severity], head) + cut(s.message, room) + paint("gray", src);
  });
  if (v.coverage.unavailable.length > 0) {
    out.push(paint("yellow", `  ! not consulted: ${v.coverage.unavailable.map((u) => `${u.source} (${u.reason})`).join(", ")}`));
  }
  return out;
}

/** One-line summary by risk level, e.g. "critical 3 · high 10 · medium 40 · low 947". */
export function levelSummary(counts: Readonly<Record<string, number>>, paint: Paint): string {
  const levels: RiskLevel[] = ["critical", "high", "medium", "low"];
  return levels.map((l) => paint(LEVEL_STYLE[l], `${l} ${(counts[l] ?? 0).toLocaleString("en-US")}`)).join(" · ");
}

export const RISK_ORDER: Readonly<Record<RiskLevel, number>> = { low: 0, medium: 1, high: 2, critical: 3 };

export function isRiskLevel(x: string): x is RiskLevel {
  return x === "low" || x === "medium" || x === "high" || x === "critical";
}
