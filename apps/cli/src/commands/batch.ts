import { availableParallelism } from "node:os";
import { Option, type Command } from "commander";
import type { EntityType } from "@svc/core";
import { chooseBackend } from "../backend.js";
import { progressBar } from "../batch/progress.js";
import { INPUT_FORMATS, openInput, type InputFormat } from "../batch/readers.js";
import { workerPool } from "../batch/pool.js";
import { renderingScreener, runBatch, type BatchScreener, type BatchSummary } from "../batch/run.js";
import { OUTPUT_FORMATS, openOutput, outputFormatFor, type OutputFormat } from "../batch/writers.js";
import { CliError, EXIT } from "../exit.js";
import { remoteTarget } from "../remote.js";
import { levelSummary } from "../render/verdict.js";
import { addDbOptions, addRemoteOptions, asRiskLevel, examples, failOnOption, parsePositiveInt, stderrPaint, typeOption, type Context } from "./shared.js";

interface BatchOptions {
  readonly format?: InputFormat;
  readonly column?: string;
  readonly header: boolean;
  readonly field?: string;
  readonly type?: string;
  readonly out?: string;
  readonly outputFormat?: OutputFormat;
  readonly concurrency?: number;
  readonly workers?: number;
  readonly failOn?: string;
  readonly quiet?: boolean;
  readonly progress: boolean;
  readonly url?: string;
  readonly key?: string;
  readonly db?: boolean;
  readonly dataDir?: string;
}

export function batchCommand(program: Command, ctx: Context): void {
  const cmd = program
    .command("batch")
    .summary("screen a file of entities (text, CSV or JSONL) to JSONL or CSV")
    .description(
      "Screen every entity in a file (or - for standard input) and write one result per good line, in input order.\n\n" +
        "Input: text (one entity per line, # comments), CSV/TSV (pick the column; a \"type\" column is used when present) or JSONL (strings, or objects with the entity in a field). Output: JSONL (one verdict per line, as the API returns it) or CSV.\n\n" +
        "Bad lines are reported on stderr with their line number and skipped; the run never stops for them. A summary by risk level ends the run. A progress bar with rate and ETA shows only when stderr is a terminal.",
    )
    .argument("<file>", "input file, or - for standard input")
    .addOption(new Option("--format <format>", "input format (default: from the file extension; text for -)").choices([...INPUT_FORMATS]))
    .option("--column <name|number>", "CSV: the column holding entities, by header name or number from 1 (default: entity_value, entity, value, domain, url, … or the first)")
    .option("--no-header", "CSV: the first row is data, not a header")
    .option("--field <name>", "JSONL: the field holding the entity (default: entity_value, entity or value)")
    .addOption(typeOption())
    .option("-o, --out <file>", "write results to this file (default: standard output)")
    .addOption(new Option("--output-format <format>", "jsonl (one verdict per line) or csv (default: from --out's extension, else jsonl)").choices([...OUTPUT_FORMATS]))
    .addOption(new Option("--concurrency <n>", "entities (embedded) or requests of ≤ 100 (remote) in flight").argParser(parsePositiveInt("--concurrency", 64)))
    .addOption(new Option("--workers <n>", "screening threads, embedded mode (default: 1; with 4+ cores and inputs over 1 MB, cores − 1 up to 4)").argParser(parsePositiveInt("--workers", 16)))
    .addOption(failOnOption())
    .option("-q, --quiet", "no summary at the end (bad lines are still reported)")
    .option("--no-progress", "never show the progress bar");
  addDbOptions(addRemoteOptions(cmd))
    .addHelpText(
      "after",
      examples(
        "svc batch domains.txt > verdicts.jsonl",
        "svc batch leads.csv --column website --out verdicts.csv",
        "svc batch events.jsonl --field url --output-format csv",
        "cat urls.txt | svc batch - --fail-on critical --quiet > /dev/null",
        "svc batch wallets.txt --type wallet --url https://svc.example.com --key svc_live_… --concurrency 8",
      ),
    )
    .action(async (file: string, o: BatchOptions) => {
      const io = ctx.io;
      const target = remoteTarget(o, io.env);
      if (o.column !== undefined && o.field !== undefined) throw new CliError("--column is for CSV and --field for JSONL; give only one.", EXIT.usage);
      const input = await openInput(file, { ...(o.format ? { format: o.format } : {}), ...(o.column !== undefined ? { column: o.column } : {}), noHeader: !o.header, ...(o.field !== undefined ? { field: o.field } : {}) }, io);
      if (o.column !== undefined && input.format !== "csv" && input.format !== "tsv") throw new CliError(`--column only applies to CSV input, and ${file} is read as ${input.format}.`, EXIT.usage, "Add --format csv if the file is CSV.");
      if (o.field !== undefined && input.format !== "jsonl") throw new CliError(`--field only applies to JSONL input, and ${file} is read as ${input.format}.`, EXIT.usage, "Add --format jsonl if the file is JSON lines.");
      const writer = await openOutput(o.out, outputFormatFor(o.out, o.outputFormat), io);

      const concurrency = o.concurrency ?? (target ? 4 : 8);
      if (o.workers !== undefined && o.workers > 1 && (target || o.db)) throw new CliError("--workers applies to in-process screening without --db; a server (or the database) sets its own pace.", EXIT.usage, target ? "Use --concurrency to choose how many requests are in flight." : undefined);
      // Threads pay off once the input outweighs their start-up (~1 s each to load the screener).
      // The main thread reads and writes, so threads help from 4 cores up (measured: docs/benchmarks.md).
      const cores = availableParallelism();
      const workers = target || o.db ? 1 : (o.workers ?? ((input.totalBytes ?? 0) > 1_048_576 && cores >= 4 ? Math.min(cores - 1, 4) : 1));
      let screener: BatchScreener;
      let close: () => Promise<void>;
      if (workers > 1) {
        const pool = await workerPool(workers, writer.format, concurrency);
        screener = pool;
        close = () => pool.close();
      } else {
        const backend = await chooseBackend(o, io, { concurrency });
        // Only CSV quotes a lead reason; a remote JSONL batch never loads core.
        const lead = writer.format === "csv" ? (await import("@svc/core")).leadSignal : () => null;
        screener = renderingScreener(backend, writer.format, lead);
        close = () => backend.close();
      }
      const paint = stderrPaint(io);
      const progress = progressBar(io.stderr, o.progress && io.stderr.isTTY === true, input, paint);
      const failOn = asRiskLevel(o.failOn);
      let summary: BatchSummary;
      try {
        summary = await runBatch({
          items: input.items(),
          screener,
          writer,
          progress,
          // Remote: `concurrency` requests in flight. Embedded: the screener is one thread, so two
          // chunks in flight keep it busy while results are written.
          inflight: target ? concurrency : workers * 2,
          ...(o.type !== undefined ? { type: o.type as EntityType } : {}),
          ...(failOn ? { failOn } : {}),
        });
      } finally {
        await close();
      }

      if (!o.quiet) {
        const rate = summary.seconds > 0 ? Math.round(summary.screened / summary.seconds) : summary.screened;
        const n = (x: number): string => x.toLocaleString("en-US");
        io.stderr.write(
          `${n(summary.lines)} lines: ${n(summary.screened)} screened, ${summary.bad > 0 ? paint("yellow", `${n(summary.bad)} skipped`) : "0 skipped"}` +
            ` — ${levelSummary(summary.byLevel, paint)}` +
            `  (${summary.seconds < 1 ? `${Math.round(summary.seconds * 1000)} ms` : `${summary.seconds.toFixed(1)} s, ${n(rate)}/s`}${target ? `, ${target.url}` : o.db ? ", in-process with the database" : workers > 1 ? `, in-process on ${workers} threads` : ", in-process"}${input.notes.length > 0 ? `; ${input.notes.join("; ")}` : ""})\n`,
        );
      }
      if (summary.failOnReached > 0 && failOn) {
        ctx.exit(EXIT.failOn);
        if (!o.quiet) io.stderr.write(`${paint("red", `${n2(summary.failOnReached)} verdict(s) reached --fail-on ${failOn}`)}\n`);
      }
    });
}

const n2 = (x: number): string => x.toLocaleString("en-US");
