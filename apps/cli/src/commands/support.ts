import { collectPages, tableLines } from "../render/listing.js";
import { Option, type Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, examples, parsePositiveInt, stdoutPaint, type Context } from "./shared.js";

const STATUSES = ["open", "answered", "all"] as const;

interface ListOptions extends AccessFlags {
  readonly status: (typeof STATUSES)[number];
  readonly limit: number;
  readonly all?: boolean;
  readonly cursor?: string;
  readonly json?: boolean;
}

interface JsonOption extends AccessFlags {
  readonly json?: boolean;
}

/** One line of a ticket's text in a table: newlines folded, long text cut. */
const oneLine = (s: string, max = 60): string => {
  const flat = s.replace(/\s+/gu, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * The chat bots' support tickets (`/support`, `/paysupport`): read them and answer them. An
 * answer is delivered by the ticket's bot to the chat the ticket came from. Operator only.
 */
export function supportCommand(program: Command, ctx: Context): void {
  const support = program
    .command("support")
    .summary("read and answer the chat bots' support tickets (operator)")
    .description(
      "Support tickets opened in the chat bots with /support or /paysupport. `list` shows the open ones, `show` one ticket with its answers, `reply` answers it: the ticket's bot sends the answer to the chat the ticket came from, once. Operator only: on this machine's database the CLI acts as the operator; on a server (--url) use an operator's key.",
    )
    .addHelpText("after", examples("svc support list", "svc support show T-4K9QZ2MX", 'svc support reply T-4K9QZ2MX "We restored your link; sorry about that."'));

  addDataDirOption(addRemoteOptions(
    support
      .command("list")
      .description("List tickets, oldest first: by default the open ones (not answered yet).")
      .addOption(new Option("--status <status>", "which tickets").choices([...STATUSES]).default("open"))
      .addOption(new Option("--limit <n>", "tickets per page (1–100)").default(50).argParser(parsePositiveInt("--limit", 100)))
      .option("--all", "follow the pages to the end")
      .option("--cursor <cursor>", "continue from a previous page")
      .option("--json", "print the tickets as JSON"),
  ))
    .addHelpText("after", examples("svc support list", "svc support list --status all --json"))
    .action(async (o: ListOptions) => {
      await withApi(ctx.io, o, async (client, where) => {
        const { items, next } = await collectPages((cursor) => operating(() => client.supportTickets({ status: o.status, limit: o.limit, ...(cursor ? { cursor } : {}) })), o.cursor, o.all === true);
        const io = ctx.io;
        if (o.json) return void (await write(io.stdout, `${JSON.stringify(o.all ? items : { items, next_cursor: next }, null, 2)}\n`));
        if (items.length === 0) return void io.stderr.write(`No ${o.status === "all" ? "" : `${o.status} `}support tickets (${where}).\n`);
        const paint = stdoutPaint(io);
        const rows = items.map((t) => [t.id, t.opened_at.replace("T", " ").slice(0, 19), `${t.platform}:${t.chat_id}`, t.topic, t.status, String(t.reply_count), oneLine(t.text)]);
        const header = ["ID", "OPENED (UTC)", "CHAT", "TOPIC", "STATUS", "REPLIES", "TEXT"];
        await write(io.stdout, `${tableLines(header, rows, (h) => paint("bold", h)).join("\n")}\n`);
        if (next) io.stderr.write(`More: svc support list --cursor ${next}${o.status !== "open" ? ` --status ${o.status}` : ""}  (or --all)\n`);
      });
    });

  addDataDirOption(addRemoteOptions(
    support
      .command("show")
      .description("Show one ticket: what the user wrote, and each answer with its delivery.")
      .argument("<id>", "the ticket's id (T-…), as `svc support list` shows it")
      .option("--json", "print the ticket as JSON"),
  ))
    .action(async (id: string, o: JsonOption) => {
      await withApi(ctx.io, o, async (client) => {
        const t = await operating(() => client.supportTicket(id), id);
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify(t, null, 2)}\n`));
        const lines = [
          `Ticket ${t.id} (${t.status}, ${t.topic})`,
          `Opened ${t.opened_at} by user ${t.user_id} in ${t.platform} chat ${t.chat_id}`,
          "",
          ...t.text.split("\n").map((l) => `  ${l}`),
        ];
        for (const r of t.replies) {
          const delivery = r.delivery === "delivered" ? `delivered ${r.delivered_at ?? ""}` : r.delivery === "failed" ? `not delivered after ${r.attempts} tries: ${r.last_error ?? "unknown error"}` : `waiting for the bot${r.last_error ? ` (last try: ${r.last_error})` : ""}`;
          lines.push("", `Answer ${r.id} by ${r.operator_id} at ${r.created_at} — ${delivery}`, ...r.text.split("\n").map((l) => `  ${l}`));
        }
        await write(ctx.io.stdout, `${lines.join("\n")}\n`);
      });
    });

  addDataDirOption(addRemoteOptions(
    support
      .command("reply")
      .description("Answer a ticket. The ticket's bot sends the text to the chat the ticket came from, once.")
      .argument("<id>", "the ticket's id (T-…)")
      .argument("<text...>", "the answer (quote it, or give it as several words)")
      .option("--json", "print the stored answer as JSON"),
  ))
    .addHelpText("after", examples('svc support reply T-4K9QZ2MX "Refunded; it shows within a day."'))
    .action(async (id: string, words: string[], o: JsonOption) => {
      const text = words.join(" ").trim();
      if (text === "") throw new CliError("The answer is empty.", EXIT.usage, 'Give the text after the ticket id, e.g. svc support reply T-… "Refunded."');
      if (text.length > 4000) throw new CliError(`The answer is ${text.length} characters; at most 4000 fit in one chat message.`, EXIT.usage);
      await withApi(ctx.io, o, async (client) => {
        const r = await operating(() => client.replySupportTicket(id, { text }), id);
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify(r, null, 2)}\n`));
        await write(ctx.io.stdout, `Answered ${id} (${r.id}): the ticket's bot delivers it to the chat the ticket came from. \`svc support show ${id}\` shows when it is delivered.\n`);
      });
    });
}

/** Runs a support call, turning the refusals an operator can act on into plain advice. */
async function operating<T>(call: () => Promise<T>, id?: string): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const { SvcApiError } = await import("@svc/sdk");
    if (e instanceof SvcApiError && e.code === "auth.operator_only") {
      throw new CliError("Only the operator may read and answer support tickets, and this API key is a customer's.", EXIT.unavailable, "Use the operator's key (--key / SVC_API_KEY), or run `svc support` on the server's machine without --url.");
    }
    if (e instanceof SvcApiError && e.code === "support.ticket_not_found") {
      throw new CliError(`No support ticket ${id ?? ""}.`.replace(" .", "."), EXIT.usage, "`svc support list --status all` shows the tickets and their ids.");
    }
    throw e;
  }
}
