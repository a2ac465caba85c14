import { Command, CommanderError } from "commander";
import { auditCommand } from "./commands/audit.js";
import { batchCommand } from "./commands/batch.js";
import { checkCommand } from "./commands/check.js";
import { exportCommand } from "./commands/export.js";
import { graphCommand } from "./commands/graph.js";
import { historyCommand } from "./commands/history.js";
import { intelCommand } from "./commands/intel.js";
import { keysCommand } from "./commands/keys.js";
import { migrateCommand } from "./commands/migrate.js";
import { providersCommand } from "./commands/providers.js";
import { reportCommand } from "./commands/report.js";
import { reportsCommand } from "./commands/reports.js";
import { supportCommand } from "./commands/support.js";
import { billingCommand } from "./commands/billing.js";
import { serveCommand } from "./commands/serve.js";
import { examples, stderrPaint, type Context } from "./commands/shared.js";
import { cliSettings } from "@svc/runtime/cli-settings";
import { CliError, EXIT, worst } from "./exit.js";
import type { Io } from "./io.js";

export const VERSION = "0.1.0";

/** Builds the `svc` program; commands report their exit code through `ctx.exit`. */
export function buildProgram(ctx: Context): Command {
  const io = ctx.io;
  const paint = stderrPaint(io);
  const program = new Command("svc")
    .description("svc — how risky is this domain, URL, wallet, e-mail, IP, phone number or social account?")
    .version(VERSION, "-V, --version")
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, out) => out(paint("red", s)),
      ...(io.stdout.columns ? { getOutHelpWidth: () => io.stdout.columns ?? 80 } : {}),
    })
    .exitOverride()
    .showHelpAfterError("(add --help for usage and examples)")
    .helpCommand(true)
    .addHelpText(
      "after",
      examples(
        "svc check paypa1.com",
        "svc batch domains.txt --out verdicts.csv",
        "svc serve",
        "svc <command> --help       # options and examples of each command",
      ) +
        "\nExit codes: 0 ok · 1 a verdict reached --fail-on · 2 bad arguments or input ·\n" +
        "            3 server unreachable or key refused · 4 internal error\n",
    );
  checkCommand(program, ctx);
  batchCommand(program, ctx);
  graphCommand(program, ctx);
  historyCommand(program, ctx);
  exportCommand(program, ctx);
  reportCommand(program, ctx);
  reportsCommand(program, ctx);
  supportCommand(program, ctx);
  billingCommand(program, ctx);
  serveCommand(program, ctx);
  migrateCommand(program, ctx);
  keysCommand(program, ctx);
  intelCommand(program, ctx);
  providersCommand(program, ctx);
  auditCommand(program, ctx);
  return program;
}

/** Runs `svc` with these arguments; returns the exit code. Never throws. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let code: number = EXIT.ok;
  const ctx: Context = { io, exit: (c) => (code = worst(code, c)) };
  const paint = stderrPaint(io);
  const program = buildProgram(ctx);
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.help" || e.code === "commander.version" || e.exitCode === 0) return code;
      return worst(code, EXIT.usage);
    }
    if (e instanceof CliError) {
      io.stderr.write(`${paint("red", `error: ${e.message}`)}\n${e.hint ? `${e.hint}\n` : ""}`);
      return worst(code, e.exitCode);
    }
    const err = e instanceof Error ? e : new Error(String(e));
    io.stderr.write(`${paint("red", `internal error: ${err.message}`)}\n`);
    io.stderr.write(cliSettings(io.env).SVC_DEBUG ? `${err.stack ?? ""}\n` : "Run again with SVC_DEBUG=1 for the stack trace, and report it as a bug.\n");
    return EXIT.internal;
  }
}
