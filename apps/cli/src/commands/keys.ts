import { randomBytes } from "node:crypto";
import { Option, type Command } from "commander";
import type { Plan } from "@svc/core";
import { CliError, EXIT } from "../exit.js";
import { displayWidth, padEnd, write } from "../io.js";
import { addDataDirOption, withLocal } from "./api-access.js";
import { examples, stdoutPaint, type Context } from "./shared.js";

interface KeyFlags {
  readonly dataDir?: string;
  readonly account?: string;
  readonly json?: boolean;
}

export function keysCommand(program: Command, ctx: Context): void {
  const keys = program
    .command("keys")
    .summary("create, list and revoke API keys (on this machine's database)")
    .description("Manage API keys in the database this machine serves from (PGlite under SVC_DATA_DIR, or PostgreSQL with DATABASE_URL). A key is shown once, at creation; only its SHA-256 is stored.")
    .addHelpText("after", examples("svc keys create --plan starter", 'svc keys create --plan pro --new-account "Acme Ltd"', "svc keys list", "svc keys revoke key_01…"));

  addDataDirOption(
    keys
      .command("create")
      .description("Create an API key and print it once. By default on the admin account; --new-account creates a customer account with the plan.")
      .addOption(new Option("--plan <plan>", "a configured plan (SVC_PLANS); by default free 30/min · starter 300/min · pro 1,500/min · operator unlimited").default("free"))
      .option("--account <id>", "an existing account (default: the admin account)")
      .option("--new-account <name>", "create a new account with this name and --plan")
      .option("--json", "print {id, key, account_id, plan} as JSON"),
  )
    .addHelpText("after", examples("svc keys create --plan starter", 'svc keys create --plan pro --new-account "Acme Ltd"'))
    .action(async (o: KeyFlags & { plan: Plan; newAccount?: string }) => {
      if (o.account && o.newAccount) throw new CliError("Give --account or --new-account, not both.", EXIT.usage);
      const core = await import("@svc/core");
      await withLocal(ctx.io, o, async (local) => {
        const s = local.runtime.services;
        const { isKnownPlan, planNames } = await import("../api-root.js");
        if (!isKnownPlan(s.plans, o.plan)) throw new CliError(`No plan "${o.plan}" is configured.`, EXIT.usage, `Use one of ${planNames(s.plans).join(", ")} (plans are set with SVC_PLANS).`);
        const now = s.clock.now();
        const { ADMIN_ACCOUNT_ID } = await import("../local.js");
        let accountId = o.account ?? ADMIN_ACCOUNT_ID;
        if (o.newAccount !== undefined) {
          accountId = (await s.accounts.create({ name: o.newAccount, plan: o.plan }, now)).id;
        } else if (!(await s.accounts.get(accountId))) {
          if (accountId !== ADMIN_ACCOUNT_ID) throw new CliError(`No account ${accountId}.`, EXIT.usage, "`svc keys list --account <id>` lists an account's keys; --new-account creates one.");
          await s.accounts.create({ id: ADMIN_ACCOUNT_ID, name: "admin", plan: "operator", role: "operator" }, now);
        }
        const key = core.formatApiKey(randomBytes(32));
        const rec = await s.keys.create({ account_id: accountId, key_hash: core.hashApiKey(key), prefix: core.apiKeyHint(key), plan: o.newAccount !== undefined ? null : o.plan }, now);
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify({ id: rec.id, key, account_id: accountId, plan: o.plan }, null, 2)}\n`));
        await write(ctx.io.stdout, `${key}\n`);
        ctx.io.stderr.write(`Created ${rec.id} on account ${accountId} (plan ${o.plan}; ${local.where}).\nThis is the only time the key is shown: store it now. Use it with --key or SVC_API_KEY.\n`);
      });
    });

  addDataDirOption(
    keys
      .command("list")
      .description("List an account's keys (prefix only — keys themselves are never stored), revoked ones included.")
      .option("--account <id>", "the account (default: the admin account)")
      .option("--json", "print the records as JSON"),
  ).action(async (o: KeyFlags) => {
    await withLocal(ctx.io, o, async (local) => {
      const { ADMIN_ACCOUNT_ID } = await import("../local.js");
      const accountId = o.account ?? ADMIN_ACCOUNT_ID;
      const list = await local.runtime.services.keys.list(accountId);
      const io = ctx.io;
      if (o.json) return void (await write(io.stdout, `${JSON.stringify(list, null, 2)}\n`));
      if (list.length === 0) return void io.stderr.write(`No keys on account ${accountId} (${local.where}). Create one with \`svc keys create\`.\n`);
      const paint = stdoutPaint(io);
      const cli = local.cliKeyHash();
      const rows = list.map((k) => [k.id, k.prefix, k.plan ?? "(account)", k.created_at.replace("T", " ").slice(0, 19), k.revoked_at ? `revoked ${k.revoked_at.slice(0, 10)}` : k.key_hash === cli ? "active (this CLI)" : "active"]);
      const header = ["ID", "KEY", "PLAN", "CREATED (UTC)", "STATUS"];
      const widths = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ""))));
      const fmt = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : padEnd(c, widths[i] ?? 0))).join("  ");
      await write(io.stdout, `${[paint("bold", fmt(header)), ...rows.map((r) => (r[4]?.startsWith("revoked") ? paint("gray", fmt(r)) : fmt(r)))].join("\n")}\n`);
    });
  });

  addDataDirOption(
    keys
      .command("revoke")
      .description("Revoke a key: it is refused from now on (401 auth.revoked_key).")
      .argument("<key-id>", "the key's id, as `svc keys list` shows it")
      .option("--account <id>", "the key's account (default: the admin account)"),
  ).action(async (keyId: string, o: KeyFlags) => {
    await withLocal(ctx.io, o, async (local) => {
      const { ADMIN_ACCOUNT_ID } = await import("../local.js");
      const s = local.runtime.services;
      const ok = await s.keys.revoke(o.account ?? ADMIN_ACCOUNT_ID, keyId, s.clock.now());
      if (!ok) throw new CliError(`No active key ${keyId} on account ${o.account ?? ADMIN_ACCOUNT_ID}.`, EXIT.usage, "`svc keys list` shows the keys and whether they are already revoked.");
      await write(ctx.io.stdout, `Revoked ${keyId}.\n`);
    });
  });
}
