import type { Command } from "commander";
import type { EntityType } from "@svc/core";
import { chooseBackend, type Outcome } from "../backend.js";
import { EXIT } from "../exit.js";
import { write } from "../io.js";
import { levelSummary, renderTable, RISK_ORDER } from "../render/verdict.js";
import { addDbOptions, addRemoteOptions, asRiskLevel, examples, failOnOption, stdoutPaint, typeOption, type Context } from "./shared.js";

interface CheckOptions {
  readonly type?: string;
  readonly json?: boolean;
  readonly failOn?: string;
  readonly url?: string;
  readonly key?: string;
  readonly db?: boolean;
  readonly dataDir?: string;
}

export function checkCommand(program: Command, ctx: Context): void {
  const cmd = program
    .command("check")
    .summary("screen entities and show their verdicts")
    .description(
      "Screen one or more entities: domains, URLs, wallets (ETH, BTC, SOL), e-mail addresses, IPv4 addresses, phone numbers (E.164) and social accounts (x:@handle, telegram:@handle, …).\n\n" +
        "In-process with the bundled reference data by default (no server, no database); on a server with --url and --key (or SVC_URL and SVC_API_KEY).\n\n" +
        "Prints a table with each verdict's reasons for people, or --json for programs. With --fail-on, exits 1 when any verdict reaches that level (for CI).",
    )
    .argument("<entity...>", "entities to screen (quote values with spaces or shell characters)")
    .addOption(typeOption())
    .option("--json", "print the verdicts as the API returns them (one object; an array for several)")
    .addOption(failOnOption());
  addDbOptions(addRemoteOptions(cmd))
    .addHelpText(
      "after",
      examples(
        "svc check paypa1.com",
        "svc check paypa1.com 0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae +18005550100",
        "svc check paypa1.com --json | jq .risk_level",
        "svc check \"$DOMAIN\" --fail-on high      # in CI: exit 1 when high or critical",
        "svc check x:@paypal_support --url https://svc.example.com --key svc_live_…",
        "svc check evil-login.com --db      # with lists imported by `svc intel import`; kept in `svc history`",
      ),
    )
    .action(async (entities: string[], o: CheckOptions) => {
      const backend = await chooseBackend(o, ctx.io);
      const outcomes: Outcome[] = [];
      try {
        for (let i = 0; i < entities.length; i += backend.chunkSize) {
          const chunk = entities.slice(i, i + backend.chunkSize).map((v) => (o.type === undefined ? { entity_value: v } : { entity_value: v, type: o.type as EntityType }));
          outcomes.push(...(await backend.screen(chunk)));
        }
      } finally {
        await backend.close();
      }

      const failOn = asRiskLevel(o.failOn);
      const verdicts = outcomes.flatMap((x) => (x.ok ? [x.verdict] : []));
      const invalid = outcomes.flatMap((x, i) => (x.ok ? [] : [{ input: entities[i] ?? "", error: x.error }]));
      const io = ctx.io;
      if (o.json) {
        const body = entities.length === 1 ? verdicts[0] : verdicts;
        if (body !== undefined) await write(io.stdout, `${JSON.stringify(body, null, 2)}\n`);
        for (const bad of invalid) io.stderr.write(`error: cannot screen ${JSON.stringify(bad.input)}: ${bad.error.message} (${bad.error.code})\n`);
      } else {
        const paint = stdoutPaint(io);
        const rows = entities.map((input, i) => ({ input, outcome: outcomes[i] as Outcome }));
        let text = renderTable(rows, { paint, ...(io.stdout.isTTY && io.stdout.columns ? { columns: io.stdout.columns } : {}) });
        if (verdicts.length > 1) {
          const counts: Record<string, number> = {};
          for (const v of verdicts) counts[v.risk_level] = (counts[v.risk_level] ?? 0) + 1;
          text += `${verdicts.length} screened: ${levelSummary(counts, paint)}\n`;
        }
        const disclaimer = verdicts[0]?.disclaimer;
        if (disclaimer) text += paint("gray", `${disclaimer}\n`);
        await write(io.stdout, text);
      }
      if (invalid.length > 0) {
        ctx.exit(EXIT.usage);
        if (!o.json) io.stderr.write(`${invalid.length} of ${entities.length} could not be screened (see above). Check the spelling, or give --type.\n`);
      }
      const reached = failOn ? verdicts.filter((v) => RISK_ORDER[v.risk_level] >= RISK_ORDER[failOn]) : [];
      if (reached.length > 0) {
        ctx.exit(EXIT.failOn);
        io.stderr.write(`--fail-on ${failOn}: reached by ${reached.map((v) => `${v.entity.value} (${v.risk_level})`).join(", ")}\n`);
      }
    });
}
