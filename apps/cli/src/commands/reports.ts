import { collectPages, tableLines } from "../render/listing.js";
import { Option, type Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, examples, parsePositiveInt, stdoutPaint, type Context } from "./shared.js";

const STATUSES = ["unverified", "confirmed", "rejected", "all"] as const;

interface ListOptions extends AccessFlags {
  readonly status: (typeof STATUSES)[number];
  readonly entity?: string;
  readonly limit: number;
  readonly all?: boolean;
  readonly cursor?: string;
  readonly json?: boolean;
}

interface DecideOptions extends AccessFlags {
  readonly reason?: string;
  readonly json?: boolean;
}

/**
 * The moderation queue. Operator only: in local mode the CLI acts as the operator (its key is on
 * the admin account); on a server it needs an operator's key.
 */
export function reportsCommand(program: Command, ctx: Context): void {
  const reports = program
    .command("reports")
    .summary("moderate community reports: list the queue, confirm, reject (operator)")
    .description(
      "The moderation queue of community reports. A report counts in verdicts only once confirmed (or, unmoderated, when its reporter has earned trust from earlier confirmed reports); confirming also puts its related entities in the shared graph, rejecting takes them out. Operator only: on this machine's database the CLI acts as the operator; on a server (--url) use an operator's key.",
    )
    .addHelpText("after", examples("svc reports list", "svc reports list --status rejected --entity paypa1.com", "svc reports confirm rep_…", 'svc reports reject rep_… --reason "the wallet is the victim\'s"'));

  addDataDirOption(addRemoteOptions(
    reports
      .command("list")
      .description("List reports, oldest first: by default the queue (unverified ones).")
      .addOption(new Option("--status <status>", "which reports").choices([...STATUSES]).default("unverified"))
      .option("--entity <entity>", "only reports about this entity")
      .addOption(new Option("--limit <n>", "reports per page (1–100)").default(50).argParser(parsePositiveInt("--limit", 100)))
      .option("--all", "follow the pages to the end")
      .option("--cursor <cursor>", "continue from a previous page")
      .option("--json", "print the reports as JSON"),
  ))
    .addHelpText("after", examples("svc reports list", "svc reports list --status all --entity paypa1.com --json"))
    .action(async (o: ListOptions) => {
      await withApi(ctx.io, o, async (client, where) => {
        const { items, next } = await collectPages((cursor) => moderating(() => client.reports({
            limit: o.limit, ...(o.status !== "all" ? { status: o.status } : {}), ...(o.entity ? { entity: o.entity } : {}), ...(cursor ? { cursor } : {}),
          })), o.cursor, o.all === true);
        const io = ctx.io;
        if (o.json) return void (await write(io.stdout, `${JSON.stringify(o.all ? items : { items, next_cursor: next }, null, 2)}\n`));
        if (items.length === 0) return void io.stderr.write(`No ${o.status === "all" ? "" : `${o.status} `}reports${o.entity ? ` about ${o.entity}` : ""} (${where}).\n`);
        const paint = stdoutPaint(io);
        const rows = items.map((r) => [
          r.id, r.created_at.replace("T", " ").slice(0, 19), r.entity.id, r.feedback ?? r.category, r.moderation_status,
          r.related_entities.length > 0 ? r.related_entities.join(", ") : "-",
          r.moderation_reason ?? (r.description ? `“${r.description}”` : ""),
        ]);
        const header = ["ID", "FILED (UTC)", "ENTITY", "CATEGORY", "STATUS", "RELATED", "REASON / DESCRIPTION"];
        await write(io.stdout, `${tableLines(header, rows, (h) => paint("bold", h)).join("\n")}\n`);
        if (next) io.stderr.write(`More: svc reports list --cursor ${next}${o.status !== "unverified" ? ` --status ${o.status}` : ""}  (or --all)\n`);
      });
    });

  const decide = (verb: "confirm" | "reject") =>
    addDataDirOption(addRemoteOptions(
      reports
        .command(verb)
        .description(verb === "confirm"
          ? "Confirm a report: it counts in verdicts and its related entities enter the shared graph."
          : "Reject a report, saying why: it never counts, and what its confirmation put in the graph leaves it.")
        .argument("<id>", "the report's id (rep_…), as `svc reports list` shows it")
        .addOption(verb === "confirm" ? new Option("--reason <text>", "a note stored with the decision") : new Option("--reason <text>", "why (stored and shown in the queue)").makeOptionMandatory())
        .option("--json", "print the report as JSON"),
    ))
      .addHelpText("after", examples(verb === "confirm" ? "svc reports confirm rep_…" : 'svc reports reject rep_… --reason "duplicate of rep_…"'))
      .action(async (id: string, o: DecideOptions) => {
        if (o.reason !== undefined && o.reason.trim() === "") throw new CliError("--reason is empty.", EXIT.usage, "Say why in a few words, e.g. --reason \"no evidence\".");
        await withApi(ctx.io, o, async (client) => {
          const r = await moderating(() => (verb === "confirm" ? client.confirmReport(id, o.reason !== undefined ? { reason: o.reason } : {}) : client.rejectReport(id, { reason: o.reason as string })), id);
          if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify(r, null, 2)}\n`));
          const related = r.related_entities.length;
          await write(ctx.io.stdout, verb === "confirm"
            ? `Confirmed ${r.id} about ${r.entity.id}: it counts in verdicts from now on${related > 0 ? `, and its ${related} related ${related === 1 ? "entity is" : "entities are"} linked in the graph` : ""}.\n`
            : `Rejected ${r.id} about ${r.entity.id} (${r.moderation_reason ?? ""}): it does not count in verdicts.\n`);
        });
      });
  decide("confirm");
  decide("reject");
}

/** Runs a queue call, turning the refusals a moderator can act on into plain advice. */
async function moderating<T>(call: () => Promise<T>, id?: string): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const { SvcApiError } = await import("@svc/sdk");
    if (e instanceof SvcApiError && e.code === "auth.operator_only") {
      throw new CliError("Only the operator may moderate reports, and this API key is a customer's.", EXIT.unavailable, "Use the operator's key (--key / SVC_API_KEY), or run `svc reports` on the server's machine without --url.");
    }
    if (e instanceof SvcApiError && e.code === "report.not_found") {
      throw new CliError(`No report ${id ?? ""}.`.replace(" .", "."), EXIT.usage, "`svc reports list --status all` shows the reports and their ids.");
    }
    throw e;
  }
}

