import { InMemoryScreening, ManualClock, type CommandName, type ConversationDriver, type Observed, type Person } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/server-ports";
import { everyRowAsText, openDataSource } from "@svc/persistence";
import type { DataSource } from "typeorm";
import { parseConfig } from "../config.js";
import { buildContainer } from "../container.js";
import { ADMIN, BOT, buildWorld, directMessage, join as joinServer, MEMBER, post as postIn, slash, TOKEN, type SlashOption } from "./discord-world.js";
import { FakeDiscord, user, type ApiCall, type RawUser } from "./fake-discord.js";

/* The shared conversation contract's driver for Discord (`conversationContract` in @svc/bot-kernel). */

/**
 * One migrated in-memory PGlite per test process, shared by every driver (migrating one takes
 * seconds): each driver starts a fresh server by clearing the Discord bot's own rows.
 */
let shared: Promise<DataSource> | null = null;
/** Opens and migrates the shared database ahead of the first conversation (a `beforeAll` with a long timeout). */
export async function warmDiscordDatabase(): Promise<void> {
  shared ??= openDataSource({ dataDir: "memory://" });
  await shared;
}

async function freshDatabase(): Promise<DataSource> {
  shared ??= openDataSource({ dataDir: "memory://" });
  const ds = await shared;
  for (const table of ["bot_chat_settings", "bot_chat_stats", "bot_members"]) await ds.query(`DELETE FROM ${table} WHERE platform = 'discord'`);
  return ds;
}

const RAIDER_BASE = 1_000_000_000_000_100_000n;
const SECRET = "c".repeat(40);
const STRING = 3;

const userOf = (p: Person): RawUser => (p.role === "admin" ? ADMIN : p.role === "member" ? MEMBER : user(String(RAIDER_BASE + BigInt(p.n)), `raider${p.n}`, `Raider ${p.n}`));
function personOf(id: string | undefined): Person | null {
  if (id === ADMIN.id) return { role: "admin" };
  if (id === MEMBER.id) return { role: "member" };
  const n = id && /^\d+$/u.test(id) ? BigInt(id) - RAIDER_BASE : -1n;
  return n > 0n && n < 1000n ? { role: "raider", n: Number(n) } : null;
}

/** Discord markdown as the plain text a user reads. */
const plain = (md: string): string =>
  md
    .split("\n")
    .map((l) => l.replace(/^-# /u, ""))
    .join("\n")
    .replaceAll("**", "")
    .replaceAll("`", "")
    .replace(/\\(.)/gu, "$1");

/** A kernel command and its text arguments as the slash command a Discord user runs. */
function slashFor(name: CommandName, args: string): { name: string; options: SlashOption[] } {
  const words = args.split(/\s+/u).filter(Boolean);
  const str = (n: string, v: string | undefined): SlashOption[] => (v ? [{ name: n, type: STRING, value: v }] : []);
  switch (name) {
    case "check":
      return { name: "checkwithsvc", options: str("entity", args) };
    case "policy":
      return { name: "policy", options: [{ name: words[0] ?? "notify", type: 1 }] };
    case "report":
      return { name: "report", options: [...str("entity", words[0]), ...str("reason", words[1])] };
    case "connect":
      return { name: "connect", options: str("api_key", args) };
    case "learn":
      return { name: "learn", options: /^\d+$/u.test(words[0] ?? "") ? [{ name: "days", type: 4, value: Number(words[0]) }] : str("action", words[0]) };
    case "start":
      return { name: "help", options: [] };
    default:
      return { name, options: str("arguments", args) };
  }
}

/**
 * Drives the real discord.js client against the fake Discord (gateway + REST on 127.0.0.1) on
 * embedded PGlite; reads the bot's REST calls back as `Observed`. Each step waits until the bot
 * has gone quiet (no new call for a moment and nothing in its queue).
 */
export async function discordConversationDriver(screening: InMemoryScreening): Promise<ConversationDriver> {
  const fake = await FakeDiscord.start(BOT);
  buildWorld(fake);
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const ds = await freshDatabase();
  const config = parseConfig({ DISCORD_TOKEN: TOKEN, DISCORD_API_ROOT: fake.apiRoot, SVC_BOOTSTRAP_KEY: SECRET, SVC_DATA_DIR: "memory://" });
  const rt = await buildContainer(config, { screening, clock, dataSource: ds });
  await rt.app.start();
  let seen = fake.calls.length;
  const quiet = async (): Promise<void> => {
    let n = -1;
    while (n !== fake.calls.length || rt.app.kernel.queueDepth > 0) {
      n = fake.calls.length;
      await new Promise((r) => setTimeout(r, 40));
    }
  };
  const dmChannels = new Set<string>();
  const observe = (c: ApiCall): Observed[] => {
    const body = (c.body ?? {}) as { content?: string; communication_disabled_until?: string | null };
    let m: RegExpExecArray | null;
    if ((m = /^\/channels\/(\d+)\/messages$/u.exec(c.path)) && c.method === "POST") {
      const where = dmChannels.has(m[1] as string) || fake.dms.has(m[1] as string) ? "private" : "group";
      return [{ kind: "message", where, text: plain(body.content ?? "") }];
    }
    // Ephemeral replies to the caller's slash command, in the server.
    if (/^\/webhooks\/\d+\/[\w.-]+(?:\/messages\/@original)?$/u.test(c.path) && (c.method === "PATCH" || c.method === "POST")) return [{ kind: "message", where: "group", text: plain(body.content ?? "") }];
    if (c.method === "DELETE" && /^\/channels\/\d+\/messages\/\d+$/u.test(c.path)) return [{ kind: "delete" }];
    if ((m = /^\/guilds\/\d+\/bans\/(\d+)$/u.exec(c.path)) && c.method === "PUT") return [{ kind: "ban", who: personOf(m[1]) }];
    if ((m = /^\/guilds\/\d+\/members\/(\d+)$/u.exec(c.path)) && c.method === "PATCH" && "communication_disabled_until" in body) {
      return [{ kind: body.communication_disabled_until ? "mute" : "unmute", who: personOf(m[1]) }];
    }
    return [];
  };
  const command = async (from: Person, name: CommandName, args: string): Promise<void> => {
    const s = slashFor(name, args);
    slash(fake, userOf(from), s.name, s.options);
    await quiet();
  };
  return {
    dialect: "discord",
    capabilities: { delete: true, ban: true, mute: true, unmute: true, joins: true },
    async addBotAsAdmin() {
      // Discord has no promotion event: the bot's role carries its permissions. A plan is what
      // the server needs (Starter or higher), then monitoring.
      await command({ role: "admin" }, "connect", apiKeyFromSecret(SECRET));
      await command({ role: "admin" }, "monitor", "");
    },
    async post(from, text) {
      postIn(fake, userOf(from), text);
      await quiet();
    },
    command,
    async dm(from, text) {
      dmChannels.add(directMessage(fake, userOf(from), text));
      await quiet();
    },
    async join(who) {
      joinServer(fake, userOf(who));
      await quiet();
    },
    async advance(ms) {
      clock.advance(ms);
      await rt.app.kernel.tick();
      await quiet();
    },
    async take() {
      await quiet();
      const fresh = fake.calls.slice(seen);
      seen = fake.calls.length;
      return fresh.flatMap(observe);
    },
    stored: async () => {
      // Counters wait in memory for up to a second: write them, so the dump holds everything the bot keeps.
      await rt.app.kernel.flush();
      return everyRowAsText(ds);
    },
    async close() {
      await rt.close();
      await fake.close();
    },
  };
}
