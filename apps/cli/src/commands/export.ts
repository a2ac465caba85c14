import { createWriteStream } from "node:fs";
import { resolve } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Option, type Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { parseWhen } from "../when.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, ENTITY_TYPES, examples, type Context } from "./shared.js";

interface ExportOptions extends AccessFlags {
  readonly since?: string;
  readonly until?: string;
  readonly type?: string;
  readonly riskLevel?: string;
  readonly out?: string;
}

export function exportCommand(program: Command, ctx: Context): void {
  const cmd = program
    .command("export")
    .summary("export the audit trail as CSV")
    .description("Export the audit records of your checks as CSV (RFC 4180, spreadsheet-safe), streamed: memory stays flat however many rows. Each row carries its record hash, chained to the previous record.")
    .option("--since <when>", "from this time (2026-11-01, 2026-11-01T12:00:00Z, or an age: 24h, 7d)")
    .option("--until <when>", "before this time")
    .addOption(new Option("--type <type>", "only this entity type").choices([...ENTITY_TYPES]))
    .addOption(new Option("--risk-level <level>", "only this risk level").choices(["low", "medium", "high", "critical"]))
    .option("-o, --out <file>", "write to this file (default: standard output)");
  addDataDirOption(addRemoteOptions(cmd))
    .addHelpText("after", examples("svc export --since 30d --out audit.csv", "svc export --since 2026-11-01 --until 2026-12-01 --risk-level critical > critical.csv", "svc export --url https://svc.example.com --key svc_live_… --out audit.csv"))
    .action(async (o: ExportOptions) => {
      const query = {
        ...(o.since ? { since: parseWhen(o.since, "--since") } : {}),
        ...(o.until ? { until: parseWhen(o.until, "--until") } : {}),
        ...(o.type ? { type: o.type } : {}),
        ...(o.riskLevel ? { risk_level: o.riskLevel } : {}),
      };
      if (query.since && query.until && query.since >= query.until) throw new CliError("--since must be before --until.", EXIT.usage);
      const io = ctx.io;
      await withApi(io, o, async (client, where) => {
        const body = await client.exportAudit(query);
        let rows = -1; // the header is not a record
        const count = new Transform({
          transform(chunk: Buffer, _enc, done) {
            for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) rows++;
            done(null, chunk);
          },
        });
        const source = Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]);
        if (o.out === undefined || o.out === "-") {
          await pipeline(source, count, io.stdout, { end: false });
        } else {
          const file = resolve(io.cwd, o.out);
          try {
            await pipeline(source, count, createWriteStream(file));
          } catch (e) {
            const code = (e as NodeJS.ErrnoException).code;
            if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") throw new CliError(`Cannot write ${o.out} (${code}).`, EXIT.usage, "Choose another --out path.");
            throw e;
          }
          io.stderr.write(`Wrote ${Math.max(0, rows).toLocaleString("en-US")} record(s) to ${o.out} (${where}).\n`);
        }
      });
    });
}
