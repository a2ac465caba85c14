import type { Verdict } from "@svc/core";

/** `leadSignal` of @svc/core, passed in: the CLI loads core only when it screens or renders CSV, never at start. */
export type LeadSignal = (signals: Verdict["signals"]) => Verdict["signals"][number] | null;

export const CSV_COLUMNS = ["line", "input", "entity_type", "entity_value", "risk_score", "risk_level", "recommended_action", "confidence", "confidence_score", "signals", "top_reason", "check_id"] as const;

/** A spreadsheet must never run a cell as a formula (CSV injection): such cells get a leading quote. */
export function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled. */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(field).join(",")}\r\n`;
}

export const CSV_HEADER = csvRecord(CSV_COLUMNS);

/** One result as a CSV record: the verdict's headline, its scoring signal codes and lead reason (a rule's finding before the model's reading). */
export function renderCsv(line: number, v: Verdict, leadSignal: LeadSignal): string {
  const top = leadSignal(v.signals);
  return csvRecord([
    String(line),
    csvSafe(v.entity.input),
    v.entity.type,
    csvSafe(v.entity.value),
    String(v.risk_score),
    v.risk_level,
    v.recommended_action,
    v.confidence,
    String(v.confidence_score),
    v.signals.filter((s) => s.points !== 0).map((s) => s.code).join(";"),
    csvSafe(top?.message ?? ""),
    v.id,
  ]);
}

/** One result as a JSON line: the verdict exactly as the API returns it. */
export function renderJsonl(v: Verdict): string {
  return `${JSON.stringify(v)}\n`;
}

export type OutputFormat = "jsonl" | "csv";

export function renderer(format: OutputFormat, leadSignal: LeadSignal): (line: number, v: Verdict) => string {
  return format === "csv" ? (line, v) => renderCsv(line, v, leadSignal) : (_line, v) => renderJsonl(v);
}
