import type { Command } from "commander";
import { EXIT } from "../exit.js";
import { write } from "../io.js";
import { parseWhen } from "../when.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, examples, stdoutPaint, type Context } from "./shared.js";

interface VerifyOptions extends AccessFlags {
  readonly account?: string;
  readonly since?: string;
  readonly until?: string;
  readonly json?: boolean;
}

export function auditCommand(program: Command, ctx: Context): void {
  const audit = program.command("audit").summary("work with the audit trail").description("Work with the audit trail of checks.");
  const verify = audit
    .command("verify")
    .summary("verify an account's audit chain (operator)")
    .description(
      "Re-computes the keyed hash of every audit record of an account, in chain order, and checks the chain head: on a server with --url/--key (an operator key), or on the local database (PGlite under SVC_DATA_DIR, or PostgreSQL with DATABASE_URL; the audit key is read as `svc serve` reads it).\n\n" +
        "Exits 0 when the chain is intact, 1 when it is not (the first bad record is named).",
    )
    .option("--account <id>", "the account to verify (default: the key's own account; locally, the admin account)")
    .option("--since <when>", "from the first record created at this time or later (2026-11-01, or an age: 7d)")
    .option("--until <when>", "up to the last record created before this time")
    .option("--json", "print the result as JSON");
  addDataDirOption(addRemoteOptions(verify))
    .addHelpText("after", examples("svc audit verify", "svc audit verify --account acc_123 --since 30d", "svc audit verify --url https://svc.example.com --key svc_live_… --account acc_123 --json"))
    .action(async (o: VerifyOptions) => {
      const query = {
        ...(o.account ? { account_id: o.account } : {}),
        ...(o.since ? { since: parseWhen(o.since, "--since") } : {}),
        ...(o.until ? { until: parseWhen(o.until, "--until") } : {}),
      };
      await withApi(ctx.io, o, async (client, where) => {
        const r = await client.verifyAudit(query);
        const io = ctx.io;
        if (!r.ok) ctx.exit(EXIT.failOn);
        if (o.json) {
          await write(io.stdout, `${JSON.stringify(r, null, 2)}\n`);
          return;
        }
        const paint = stdoutPaint(io);
        const legacy = r.legacy > 0 ? `, ${r.legacy} of them legacy (unkeyed SHA-256, written before keyed hashing)` : "";
        if (r.ok) {
          await write(io.stdout, `${paint("green", "ok")}: audit chain of ${r.account_id} intact, ${r.checked} record${r.checked === 1 ? "" : "s"} verified${legacy} (${where}).\n`);
          return;
        }
        const bad = r.first_bad;
        const at = bad?.id ? `record ${bad.id}` : "the chain head";
        await write(io.stdout, `${paint("red", "BROKEN")}: audit chain of ${r.account_id} fails at ${at}: ${bad?.reason ?? "unknown"} (${bad?.detail ?? ""}); ${r.checked} record${r.checked === 1 ? "" : "s"} read (${where}).\n`);
      });
    });
}
