import { randomBytes } from "node:crypto";
import { Option, type Command } from "commander";
import type { Plan } from "@svc/server-ports";
import type { SvcClient } from "@svc/sdk";
import { CliError, EXIT } from "../exit.js";
import { displayWidth, padEnd, write, type Io } from "../io.js";
import { clientFor, remoteError, remoteTarget, type RemoteTarget } from "../remote.js";
import { addDataDirOption, withLocal } from "./api-access.js";
import { examples, stdoutPaint, type Context } from "./shared.js";

interface KeyFlags {
  readonly dataDir?: string;
  readonly account?: string;
  readonly json?: boolean;
  readonly url?: string;
  readonly key?: string;
}

/** Local (--data-dir, the default) or a server's /v1/keys (--url/--key or SVC_URL/SVC_API_KEY). */
function addKeyOptions(cmd: Command): Command {
  return addDataDirOption(cmd)
    .addOption(new Option("--url <url>", "manage keys on this server over HTTP instead of this machine's database (default: $SVC_URL)"))
    .addOption(new Option("--key <key>", "API key for --url (default: $SVC_API_KEY): an operator's key for other accounts"));
}

/** Runs `fn` with a client for the server, turning its problems into errors the user can act on. */
async function withServer<T>(target: RemoteTarget, fn: (client: SvcClient) => Promise<T>): Promise<T> {
  const client = await clientFor(target);
  try {
    return await fn(client);
  } catch (e) {
    const { SvcApiError } = await import("@svc/sdk");
    // 403 here is about who may manage which keys, not about plans: say what the server said.
    if (e instanceof SvcApiError && e.status === 403) throw new CliError(`The server refused: ${e.problem.detail} (${e.code})`, EXIT.unavailable, "Another account's keys, and new accounts, need an operator's key.");
    throw e instanceof CliError ? e : ((await remoteError(e, target.url)) ?? e);
  }
}

/** One row of `svc keys list`, from the local store or the server. */
interface KeyRow {
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly plan: string;
  readonly created_at: string;
  readonly revoked_at: string | null;
  readonly thisCli: boolean;
}

async function printKeys(io: Io, rows: readonly KeyRow[]): Promise<void> {
  const paint = stdoutPaint(io);
  const cells = rows.map((k) => [k.id, k.prefix, k.name ?? "", k.plan, k.created_at.replace("T", " ").slice(0, 19), k.revoked_at ? `revoked ${k.revoked_at.slice(0, 10)}` : k.thisCli ? "active (this CLI)" : "active"]);
  const header = ["ID", "KEY", "NAME", "PLAN", "CREATED (UTC)", "STATUS"];
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...cells.map((r) => displayWidth(r[i] ?? ""))));
  const fmt = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : padEnd(c, widths[i] ?? 0))).join("  ");
  await write(io.stdout, `${[paint("bold", fmt(header)), ...cells.map((r) => (r[5]?.startsWith("revoked") ? paint("gray", fmt(r)) : fmt(r)))].join("\n")}\n`);
}

const createdNote = (id: string, account: string, plan: string, where: string): string =>
  `Created ${id} on account ${account} (plan ${plan}; ${where}).\nThis is the only time the key is shown: store it now. Use it with --key or SVC_API_KEY.\n`;

export function keysCommand(program: Command, ctx: Context): void {
  const keys = program
    .command("keys")
    .summary("create, list and revoke API keys (on this machine's database, or a server with --url)")
    .description("Manage API keys in the database this machine serves from (PGlite under SVC_DATA_DIR, or PostgreSQL with DATABASE_URL). A key is shown once, at creation; only its SHA-256 is stored. With --url/--key (or SVC_URL/SVC_API_KEY) the same commands go to a server's /v1/keys.")
    .addHelpText("after", examples("svc keys create --plan starter", 'svc keys create --plan pro --new-account "Acme Ltd"', "svc keys list", "svc keys revoke key_01…"));

  addKeyOptions(
    keys
      .command("create")
      .description("Create an API key and print it once. By default on the admin account (over --url: on your key's account); --new-account creates a customer account with the plan.")
      .addOption(new Option("--plan <plan>", "a configured plan (SVC_PLANS): by default free 30/min · starter 300/min · pro 1,500/min · operator unlimited (default: free here; over --url the account's plan)"))
      .option("--name <label>", "a label to tell the key apart (ci, laptop)")
      .option("--account <id>", "an existing account (default: the admin account)")
      .option("--new-account <name>", "create a new account with this name and --plan")
      .option("--json", "print {id, key, account_id, plan, name} as JSON"),
  )
    .addHelpText("after", examples("svc keys create --plan starter", 'svc keys create --plan pro --new-account "Acme Ltd"', "svc keys create --name ci --url http://127.0.0.1:8080 --key svc_live_…"))
    .action(async (o: KeyFlags & { plan?: string; name?: string; newAccount?: string }) => {
      if (o.account && o.newAccount) throw new CliError("Give --account or --new-account, not both.", EXIT.usage);
      const target = remoteTarget(o, ctx.io.env);
      if (target) {
        const k = await withServer(target, (c) => c.createKey({
          ...(o.name !== undefined ? { name: o.name } : {}), ...(o.plan !== undefined ? { plan: o.plan } : {}),
          ...(o.account !== undefined ? { account_id: o.account } : {}), ...(o.newAccount !== undefined ? { new_account: o.newAccount } : {}),
        }));
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify({ id: k.id, key: k.key, account_id: k.account_id, plan: k.plan, name: k.name }, null, 2)}\n`));
        await write(ctx.io.stdout, `${k.key}\n`);
        ctx.io.stderr.write(createdNote(k.id, k.account_id, k.plan, target.url));
        return;
      }
      const plan: Plan = o.plan ?? "free";
      const core = await import("@svc/server-ports");
      await withLocal(ctx.io, o, async (local) => {
        const s = local.runtime.services;
        const { isKnownPlan, planNames } = await import("@svc/runtime");
        if (!isKnownPlan(s.plans, plan)) throw new CliError(`No plan "${plan}" is configured.`, EXIT.usage, `Use one of ${planNames(s.plans).join(", ")} (plans are set with SVC_PLANS).`);
        const now = s.clock.now();
        const { ADMIN_ACCOUNT_ID } = await import("../local.js");
        let accountId = o.account ?? ADMIN_ACCOUNT_ID;
        if (o.newAccount !== undefined) {
          accountId = (await s.accounts.create({ name: o.newAccount, plan }, now)).id;
        } else if (!(await s.accounts.get(accountId))) {
          if (accountId !== ADMIN_ACCOUNT_ID) throw new CliError(`No account ${accountId}.`, EXIT.usage, "`svc keys list --account <id>` lists an account's keys; --new-account creates one.");
          await s.accounts.create({ id: ADMIN_ACCOUNT_ID, name: "admin", plan: "operator", role: "operator" }, now);
        }
        const key = core.formatApiKey(randomBytes(32));
        const rec = await s.keys.create({ account_id: accountId, key_hash: core.hashApiKey(key), prefix: core.apiKeyHint(key), name: o.name ?? null, plan: o.newAccount !== undefined ? null : plan }, now);
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify({ id: rec.id, key, account_id: accountId, plan, name: rec.name }, null, 2)}\n`));
        await write(ctx.io.stdout, `${key}\n`);
        ctx.io.stderr.write(createdNote(rec.id, accountId, plan, local.where));
      });
    });

  addKeyOptions(
    keys
      .command("list")
      .description("List an account's keys (prefix only — keys themselves are never stored), revoked ones included.")
      .option("--account <id>", "the account (default: the admin account; over --url your key's account)")
      .option("--json", "print the records as JSON"),
  ).action(async (o: KeyFlags) => {
    const target = remoteTarget(o, ctx.io.env);
    if (target) {
      const list = await withServer(target, (c) => c.listKeys(o.account !== undefined ? { accountId: o.account } : {}));
      if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify(list, null, 2)}\n`));
      if (list.length === 0) return void ctx.io.stderr.write(`No keys on this account (${target.url}).\n`);
      return printKeys(ctx.io, list.map((k) => ({ ...k, plan: k.plan_is_account_plan ? `${k.plan} (account)` : k.plan, thisCli: false })));
    }
    await withLocal(ctx.io, o, async (local) => {
      const { ADMIN_ACCOUNT_ID } = await import("../local.js");
      const accountId = o.account ?? ADMIN_ACCOUNT_ID;
      const list = await local.runtime.services.keys.list(accountId);
      const io = ctx.io;
      if (o.json) return void (await write(io.stdout, `${JSON.stringify(list, null, 2)}\n`));
      if (list.length === 0) return void io.stderr.write(`No keys on account ${accountId} (${local.where}). Create one with \`svc keys create\`.\n`);
      const cli = local.cliKeyHash();
      await printKeys(io, list.map((k) => ({ ...k, plan: k.plan ?? "(account)", thisCli: k.key_hash === cli })));
    });
  });

  addKeyOptions(
    keys
      .command("revoke")
      .description("Revoke a key: it is refused from now on (401 auth.revoked_key). Over --url you may revoke the very key you call with.")
      .argument("<key-id>", "the key's id, as `svc keys list` shows it")
      .option("--account <id>", "the key's account (default: the admin account; over --url your key's account)"),
  ).action(async (keyId: string, o: KeyFlags) => {
    const target = remoteTarget(o, ctx.io.env);
    if (target) {
      await withServer(target, (c) => c.revokeKey(keyId, o.account !== undefined ? { accountId: o.account } : {}));
      return void (await write(ctx.io.stdout, `Revoked ${keyId}.\n`));
    }
    await withLocal(ctx.io, o, async (local) => {
      const { ADMIN_ACCOUNT_ID } = await import("../local.js");
      const s = local.runtime.services;
      const ok = await s.keys.revoke(o.account ?? ADMIN_ACCOUNT_ID, keyId, s.clock.now());
      if (!ok) throw new CliError(`No active key ${keyId} on account ${o.account ?? ADMIN_ACCOUNT_ID}.`, EXIT.usage, "`svc keys list` shows the keys and whether they are already revoked.");
      await write(ctx.io.stdout, `Revoked ${keyId}.\n`);
    });
  });
}
