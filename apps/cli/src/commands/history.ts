import { collectPages, tableLines } from "../render/listing.js";
import { Option, type Command } from "commander";
import { write } from "../io.js";
import { parseWhen } from "../when.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, ENTITY_TYPES, examples, parsePositiveInt, stdoutPaint, type Context } from "./shared.js";

interface HistoryOptions extends AccessFlags {
  readonly limit: number;
  readonly all?: boolean;
  readonly cursor?: string;
  readonly type?: string;
  readonly riskLevel?: string;
  readonly since?: string;
  readonly until?: string;
  readonly json?: boolean;
}

export function historyCommand(program: Command, ctx: Context): void {
  const cmd = program
    .command("history")
    .summary("list your past checks, newest first")
    .description("List past checks of your account, newest first: on a server with --url/--key, or in the local database (checks recorded by `svc serve` and `svc check --db`).")
    .addOption(new Option("--limit <n>", "checks per page (1–100)").default(20).argParser(parsePositiveInt("--limit", 100)))
    .option("--all", "follow the pages to the end")
    .option("--cursor <cursor>", "continue from a previous page")
    .addOption(new Option("--type <type>", "only this entity type").choices([...ENTITY_TYPES]))
    .addOption(new Option("--risk-level <level>", "only this risk level").choices(["low", "medium", "high", "critical"]))
    .option("--since <when>", "from this time (2026-11-01, 2026-11-01T12:00:00Z, or an age: 24h, 7d)")
    .option("--until <when>", "before this time")
    .option("--json", "print the items as JSON");
  addDataDirOption(addRemoteOptions(cmd))
    .addHelpText("after", examples("svc history", "svc history --risk-level critical --since 7d", "svc history --all --json > checks.json", "svc history --url https://svc.example.com --key svc_live_…"))
    .action(async (o: HistoryOptions) => {
      const query = {
        limit: o.limit,
        ...(o.type ? { type: o.type } : {}),
        ...(o.riskLevel ? { risk_level: o.riskLevel } : {}),
        ...(o.since ? { since: parseWhen(o.since, "--since") } : {}),
        ...(o.until ? { until: parseWhen(o.until, "--until") } : {}),
      };
      await withApi(ctx.io, o, async (client, where) => {
        const { items, next } = await collectPages((cursor) => client.history({ ...query, ...(cursor ? { cursor } : {}) }), o.cursor, o.all === true);
        const io = ctx.io;
        if (o.json) {
          await write(io.stdout, `${JSON.stringify(o.all ? items : { items, next_cursor: next }, null, 2)}\n`);
          return;
        }
        if (items.length === 0) {
          io.stderr.write(`No checks found (${where}).\n`);
          return;
        }
        const paint = stdoutPaint(io);
        const rows = items.map((i) => [i.evaluated_at.replace("T", " ").slice(0, 19), i.entity.value, i.entity.type, `${String(i.risk_score).padStart(3)} ${i.risk_level}`, i.confidence, i.channel, i.id]);
        const header = ["WHEN (UTC)", "ENTITY", "TYPE", "RISK", "CONFIDENCE", "CHANNEL", "CHECK ID"];
        await write(io.stdout, `${tableLines(header, rows, (h) => paint("bold", h)).join("\n")}\n`);
        if (next) io.stderr.write(`More: svc history --cursor ${next}${o.limit !== 20 ? ` --limit ${o.limit}` : ""}  (or --all)\n`);
      });
    });
}
