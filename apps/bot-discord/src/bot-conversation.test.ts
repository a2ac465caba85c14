import { generateKeyPairSync, sign } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { InMemoryScreening, ManualClock } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/server-ports";
import { openDataSource, scratchDatabase, type ScratchDatabase } from "@svc/persistence";
import type { DataSource } from "typeorm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { buildContainer, type BotRuntime } from "./container.js";
import { createInteractionsEndpoint } from "./interactions-endpoint.js";
import { PermissionFlagsBits } from "discord.js";
import { FakeDiscord, member, role, user } from "./testing/fake-discord.js";
import { ADMIN, answerTo, BOT, buildWorld, directMessage, edit, EVERYONE_PERMS, GENERAL, GUILD_ID, IMPOSTOR, interaction, join, LOCKED, MEMBER, post, SENIOR, SERVER_IMPOSTOR, slash, TOKEN } from "./testing/discord-world.js";

const SECRET = "d".repeat(40);
const STRING = 3;
const SUBCOMMAND = 1;
const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

/**
 * The scripted admin / member / raider conversation, end to end: the real discord.js client
 * logs in to a fake Discord (gateway WebSocket + REST on 127.0.0.1), and the real composition
 * root keeps every setting in the database.
 */
describe.each(engines)("Discord bot conversation on %s", (engine) => {
  let fake: FakeDiscord;
  let rt: BotRuntime;
  let ds: DataSource;
  let pg: ScratchDatabase | null = null;
  const errors: unknown[] = [];
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const screening = new InMemoryScreening().set("paypa1.com", "critical", "Looks like paypal.com");

  beforeAll(async () => {
    fake = await FakeDiscord.start(BOT);
    buildWorld(fake);
    pg = engine === "postgres" ? await scratchDatabase(process.env.TEST_DATABASE_URL as string) : null;
    ds = await openDataSource(pg ? { url: pg.url } : { dataDir: "memory://" });
    const config = parseConfig({ DISCORD_TOKEN: TOKEN, DISCORD_API_ROOT: fake.apiRoot, SVC_BOOTSTRAP_KEY: SECRET, SVC_DATA_DIR: "memory://" });
    rt = await buildContainer(config, { screening, clock, dataSource: ds, onError: (e) => errors.push(e) });
    await rt.app.start();
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
    await ds?.destroy();
    await pg?.drop();
    await fake?.close();
  });

  const ask = async (from: typeof ADMIN, name: string, options: Parameters<typeof slash>[3] = []) => {
    const a = await answerTo(fake, slash(fake, from, name, options));
    expect(a.deferFlags).toBe(64);
    return a.content;
  };
  /** Waits until the bot has finished with everything sent so far (its reply to a later command). */
  const settle = () => ask(MEMBER, "report", [{ name: "entity", type: STRING, value: "example.org" }, { name: "reason", type: STRING, value: "other" }]);

  it("identifies with the intents it needs and registers the SPEC commands", async () => {
    const intents = Number(fake.identify?.intents);
    expect(intents & (1 << 15)).not.toBe(0); // Message Content
    expect(intents & (1 << 1)).not.toBe(0); // Server Members
    await rt.app.registerCommands(GUILD_ID);
    const put = await fake.waitForCall("PUT", new RegExp(`^/applications/${BOT.id}/guilds/${GUILD_ID}/commands$`, "u"));
    const names = (put.body as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["checkwithsvc", "monitor", "unmonitor", "policy", "report", "connect", "audit", "learn"]));
  });

  it("says hello when added to a new server, naming the permissions it lacks", async () => {
    const mark = fake.calls.length;
    const g = { id: "1200000000000000100", name: "Second", owner_id: ADMIN.id, system_channel_id: "1200000000000000101", roles: [role("1200000000000000100", "@everyone", EVERYONE_PERMS, 0), role("1300000000000000100", "svc", EVERYONE_PERMS | PermissionFlagsBits.ManageMessages, 1)], channels: [{ id: "1200000000000000101", type: 0, name: "welcome", position: 0, permission_overwrites: [] }], members: [member(ADMIN), member(BOT, ["1300000000000000100"])] };
    fake.addGuild(g);
    fake.dispatch("GUILD_CREATE", fake.guildPayload(g));
    const hello = await fake.waitForCall("POST", /^\/channels\/1200000000000000101\/messages$/u, mark);
    const text = (hello.body as { content: string }).content;
    expect(text).toContain("svc was added to this server");
    expect(text).toContain("Ban Members");
    expect(text).toContain("Timeout Members");
    expect(text).not.toContain("Manage Messages");
  });

  it("counts admins Discord did not send at connect (large servers): it lists the members once", async () => {
    const g = { id: "1200000000000000200", name: "Big", owner_id: MEMBER.id, system_channel_id: null, roles: [role("1200000000000000200", "@everyone", EVERYONE_PERMS, 0), role("1300000000000000200", "Admins", PermissionFlagsBits.ManageGuild, 1)], channels: [], members: [member(MEMBER), member(ADMIN, ["1300000000000000200"]), member(BOT)] };
    fake.addGuild(g);
    // Like a large server: GUILD_CREATE carries only some members, member_count all of them.
    fake.dispatch("GUILD_CREATE", { ...fake.guildPayload(g), members: [member(MEMBER), member(BOT)], member_count: 3, large: true });
    // No channel to greet in: the greeting goes to the owner by DM.
    await fake.waitForCall("POST", /^\/users\/@me\/channels$/u);
    const admins = await rt.app.chat.listAdmins(g.id);
    expect(admins.map((a) => a.id)).toEqual([MEMBER.id, ADMIN.id, `server:${g.id}`]);
    expect(fake.callsTo("GET", new RegExp(`^/guilds/${g.id}/members$`, "u"))).toHaveLength(1);
  });

  it("needs the Starter plan: commands are refused and nothing is scanned until /connect", async () => {
    expect(await ask(ADMIN, "monitor")).toContain("needs the starter plan or higher");
    const before = fake.calls.length;
    post(fake, MEMBER, "free money at https://paypa1.com/login");
    await settle();
    expect(fake.callsTo("DELETE", /^\/channels\//u).filter((c) => fake.calls.indexOf(c) >= before)).toHaveLength(0);
  });

  it("binds a plan with /connect without telling anyone to delete a message only the bot saw", async () => {
    const bad = await ask(ADMIN, "connect", [{ name: "api_key", type: STRING, value: "svc_live_nope" }]);
    expect(bad).toContain("not a valid API key");
    const ok = await ask(ADMIN, "connect", [{ name: "api_key", type: STRING, value: apiKeyFromSecret(SECRET) }]);
    expect(ok).toContain("now uses the pro plan");
    expect(ok).not.toMatch(/delete your message/iu);
  });

  it("refuses admin commands to members, politely and privately", async () => {
    expect(await ask(MEMBER, "monitor")).toContain("is for the admins");
  });

  it("monitors with the delete policy: the message goes, a defanged notice stays in the channel", async () => {
    expect(await ask(ADMIN, "monitor")).toContain("Monitoring is on");
    expect(await ask(ADMIN, "policy", [{ name: "delete", type: SUBCOMMAND }])).toContain("Policy set to delete");
    const mark = fake.calls.length;
    const id = post(fake, MEMBER, "claim your airdrop at https://paypa1.com/login");
    await fake.waitForCall("DELETE", new RegExp(`^/channels/${GENERAL}/messages/${id}$`, "u"), mark);
    const notice = await fake.waitForCall("POST", new RegExp(`^/channels/${GENERAL}/messages$`, "u"), mark);
    const b = notice.body as { content: string; flags: number; allowed_mentions: { parse: unknown[] } };
    expect(b.content).toContain("Removed a message from Bob");
    expect(b.content).toContain("paypa1[.]com");
    expect(b.content).not.toContain("https://paypa1.com");
    expect(b.flags & 4).toBe(4); // no link preview
    expect(b.allowed_mentions.parse).toEqual([]);
  });

  it("ban policy bans a member below the bot's role, and not one whose role is above it", async () => {
    expect(await ask(ADMIN, "policy", [{ name: "ban", type: SUBCOMMAND }])).toContain("Policy set to ban");
    let mark = fake.calls.length;
    post(fake, MEMBER, "support desk: paypa1.com");
    await fake.waitForCall("PUT", new RegExp(`^/guilds/${GUILD_ID}/bans/${MEMBER.id}$`, "u"), mark);
    const banned = await fake.waitForCall("POST", new RegExp(`^/channels/${GENERAL}/messages$`, "u"), mark);
    expect((banned.body as { content: string }).content).toContain("Bob was banned");
    mark = fake.calls.length;
    post(fake, SENIOR, "verify at paypa1.com");
    const notice = await fake.waitForCall("POST", new RegExp(`^/channels/${GENERAL}/messages$`, "u"), mark);
    expect((notice.body as { content: string }).content).toContain("could not ban");
    expect(fake.callsTo("PUT", new RegExp(`/bans/${SENIOR.id}$`, "u"))).toHaveLength(0);
  });

  it("scans edits: a harmless message edited into a lure is handled like a new one", async () => {
    expect(await ask(ADMIN, "policy", [{ name: "delete", type: SUBCOMMAND }])).toContain("Policy set to delete");
    const id = post(fake, MEMBER, "hello all");
    await settle();
    const mark = fake.calls.length;
    edit(fake, MEMBER, id, "new link: paypa1.com");
    await fake.waitForCall("DELETE", new RegExp(`^/channels/${GENERAL}/messages/${id}$`, "u"), mark);
  });

  it("in a direct message, scans what it is sent and replies with a verdict", async () => {
    const mark = fake.calls.length;
    const dm = directMessage(fake, MEMBER, "is this legit? https://paypa1.com/verify");
    const answer = await fake.waitForCall("POST", new RegExp(`^/channels/${dm}/messages$`, "u"), mark);
    expect((answer.body as { content: string }).content).toContain("CRITICAL");
  });

  it("without Manage Messages in a channel it warns instead of failing", async () => {
    const mark = fake.calls.length;
    const id = post(fake, MEMBER, "paypa1.com", LOCKED);
    const notice = await fake.waitForCall("POST", new RegExp(`^/channels/${LOCKED}/messages$`, "u"), mark);
    expect((notice.body as { content: string }).content).toContain("could not delete");
    expect(fake.callsTo("DELETE", new RegExp(`/messages/${id}$`, "u"))).toHaveLength(0);
  });

  it("/checkwithsvc and /report answer only the caller; the report reaches the API's store", async () => {
    expect(await ask(MEMBER, "checkwithsvc", [{ name: "entity", type: STRING, value: "paypa1.com" }])).toContain("CRITICAL");
    const r = await ask(MEMBER, "report", [{ name: "entity", type: STRING, value: "evil-wallet-drain.top" }, { name: "reason", type: STRING, value: "phishing" }]);
    expect(r).toContain("reported as phishing");
    const rows = await ds.query(`SELECT reporter_id, category FROM reports WHERE reporter_id = $1 AND category = 'phishing'`, [`discord:${MEMBER.id}`]);
    expect(rows).toHaveLength(1);
  });

  it("/audit lists every member imitating an admin or the server's name", async () => {
    const a = await ask(ADMIN, "audit");
    expect(fake.callsTo("GET", new RegExp(`^/guilds/${GUILD_ID}/members$`, "u")).length).toBeGreaterThan(0);
    expect(a).toContain(IMPOSTOR.id);
    expect(a).toContain(SERVER_IMPOSTOR.id);
    expect(a).not.toContain(`id ${MEMBER.id}`);
  });

  it("a raid of joins starts a lockdown: joiners are timed out and the server is told once", async () => {
    const mark = fake.calls.length;
    for (let k = 0; k < 10; k++) join(fake, user(`10000000000000001${String(k).padStart(2, "0")}`, `raider${k}`));
    const alert = await fake.waitForCall("POST", new RegExp(`^/channels/${GENERAL}/messages$`, "u"), mark);
    expect((alert.body as { content: string }).content).toContain("Raid detected");
    await settle();
    const timeouts = fake.callsTo("PATCH", new RegExp(`^/guilds/${GUILD_ID}/members/\\d+$`, "u")).filter((c) => fake.calls.indexOf(c) >= mark);
    expect(timeouts.length).toBe(10);
    expect(timeouts.every((c) => typeof (c.body as { communication_disabled_until?: string }).communication_disabled_until === "string")).toBe(true);
  });

  it("/learn observes, /unmonitor stops; settings live in the database", async () => {
    expect(await ask(ADMIN, "learn", [{ name: "days", type: 4, value: 3 }])).toContain("Learning mode");
    expect(await ask(ADMIN, "unmonitor")).toContain("Monitoring is off");
    const [row] = await ds.query(`SELECT * FROM bot_chat_settings WHERE platform = 'discord' AND chat_id = $1`, [GUILD_ID]);
    expect(row).toMatchObject({ policy: "delete", monitoring: false, plan_tier: "pro", plan_source: "api_key" });
    expect(errors).toEqual([]);
  });

  it("answers a signed slash command on the HTTP interactions endpoint: deferred in the response, verdict by webhook", async () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const endpoint = createInteractionsEndpoint({
      publicKey: publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex"),
      path: "/discord/interactions",
      clock,
      handle: (i) => rt.app.handleHttpInteraction(i),
    });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: endpoint.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    try {
      const raw = interaction(fake, MEMBER, "checkwithsvc", [{ name: "entity", type: STRING, value: "paypa1.com" }]);
      const body = JSON.stringify(raw);
      const ts = String(Math.floor(clock.now().getTime() / 1000));
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/discord/interactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Signature-Timestamp": ts, "X-Signature-Ed25519": sign(null, Buffer.from(ts + body), privateKey).toString("hex") },
        body,
      });
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ type: 5, data: { flags: 64 } });
      const edit = await fake.waitForCall("PATCH", new RegExp(`^/webhooks/\\d+/tok-${raw.id}/messages/@original$`, "u"));
      expect((edit.body as { content: string }).content).toContain("CRITICAL");
      expect(fake.callsTo("POST", new RegExp(`^/interactions/${raw.id}/`, "u"))).toHaveLength(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
