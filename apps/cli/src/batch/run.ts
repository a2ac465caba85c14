import type { EntityType, RiskLevel } from "@svc/core";
import type { Backend, ScreenInput } from "../backend.js";
import { showInput } from "../io.js";
import { RISK_ORDER } from "../render/verdict.js";
import type { Progress } from "./progress.js";
import type { InputItem } from "./readers.js";
import { renderer, type LeadSignal, type OutputFormat } from "./render.js";
import type { ResultWriter } from "./writers.js";

/** A result ready to write: its level (for the summary and --fail-on) and its rendered text. */
export type Rendered =
  | { readonly ok: true; readonly level: RiskLevel; readonly text: string }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

export interface Entry {
  readonly line: number;
  readonly input: ScreenInput;
}

/** What screens a batch: a backend whose verdicts are rendered here, or a worker pool that renders itself. */
export interface BatchScreener {
  readonly chunkSize: number;
  screen(entries: readonly Entry[]): Promise<Rendered[]>;
}

export function renderingScreener(backend: Backend, format: OutputFormat, leadSignal: LeadSignal): BatchScreener {
  const render = renderer(format, leadSignal);
  return {
    chunkSize: backend.chunkSize,
    async screen(entries) {
      const outcomes = await backend.screen(entries.map((e) => e.input));
      return outcomes.map((o, i) => (o.ok ? { ok: true, level: o.verdict.risk_level, text: render((entries[i] as Entry).line, o.verdict) } : o));
    },
  };
}

export interface BatchSummary {
  /** Lines that held something (blank lines and comments are not counted). */
  readonly lines: number;
  readonly screened: number;
  readonly bad: number;
  readonly byLevel: Record<RiskLevel, number>;
  readonly failOnReached: number;
  readonly seconds: number;
}

export interface BatchRun {
  readonly items: AsyncIterable<InputItem>;
  readonly screener: BatchScreener;
  readonly writer: ResultWriter;
  readonly progress: Progress;
  /** Chunks screened at the same time (remote: HTTP requests in flight). */
  readonly inflight: number;
  /** Entity type for every line that does not give its own. */
  readonly type?: EntityType;
  readonly failOn?: RiskLevel;
  /** Bad lines reported one by one, then only counted. */
  readonly maxBadShown?: number;
}

/**
 * Reads, screens in chunks with a bounded number in flight, and writes results in input order.
 * A bad line is reported with its number and skipped; only a failure of the backend itself
 * (server down, key refused) stops the run.
 */
export async function runBatch(run: BatchRun): Promise<BatchSummary> {
  const started = performance.now();
  const byLevel: Record<RiskLevel, number> = { low: 0, medium: 0, high: 0, critical: 0 };
  let lines = 0;
  let screened = 0;
  let bad = 0;
  let failOnReached = 0;
  const maxShown = run.maxBadShown ?? 1000;
  const reportBad = (line: number, reason: string): void => {
    bad++;
    if (bad <= maxShown) run.progress.log(`line ${line}: ${reason} — skipped`);
    else if (bad === maxShown + 1) run.progress.log(`(more bad lines: only counted from here on)`);
  };

  const pending: { entries: Entry[]; result: Promise<Rendered[]> }[] = [];
  const drainOne = async (): Promise<void> => {
    const head = pending.shift();
    if (!head) return;
    const outcomes = await head.result;
    for (let i = 0; i < head.entries.length; i++) {
      const entry = head.entries[i] as Entry;
      const o = outcomes[i];
      if (!o || !o.ok) {
        reportBad(entry.line, o ? `${showInput(entry.input.entity_value)}: ${o.error.message} (${o.error.code})` : "no result");
        continue;
      }
      screened++;
      byLevel[o.level]++;
      if (run.failOn && RISK_ORDER[o.level] >= RISK_ORDER[run.failOn]) failOnReached++;
      await run.writer.write(o.text);
    }
    run.progress.tick(head.entries.length);
  };
  const dispatch = async (entries: Entry[]): Promise<void> => {
    const result = run.screener.screen(entries);
    // Awaited in order by drainOne; this only keeps an early failure from being "unhandled".
    result.catch(() => {});
    pending.push({ entries, result });
    while (pending.length >= run.inflight) await drainOne();
  };

  try {
    let chunk: Entry[] = [];
    for await (const item of run.items) {
      lines++;
      if (item.kind === "bad") {
        reportBad(item.line, item.reason);
        continue;
      }
      const type = item.type ?? run.type;
      chunk.push({ line: item.line, input: type === undefined ? { entity_value: item.value } : { entity_value: item.value, type } });
      if (chunk.length >= run.screener.chunkSize) {
        await dispatch(chunk);
        chunk = [];
      }
    }
    if (chunk.length > 0) await dispatch(chunk);
    while (pending.length > 0) await drainOne();
  } finally {
    run.progress.done();
  }
  await run.writer.end();
  return { lines, screened, bad, byLevel, failOnReached, seconds: (performance.now() - started) / 1000 };
}
