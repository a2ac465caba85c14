import { PermissionFlagsBits as P } from "discord.js";
import { FakeDiscord, member, nextId, role, user, type RawMember, type RawUser } from "./fake-discord.js";

/**
 * One server with the people a scripted conversation needs: the owner, an admin, members, a
 * moderator whose role sits above the bot's (so the bot may not ban them), and the bot itself.
 */
export const BOT = user("1100000000000000001", "svc", "svc", true);
export const GUILD_ID = "1200000000000000001";
export const GENERAL = "1200000000000000002";
/** A channel where the bot's role is denied Manage Messages. */
export const LOCKED = "1200000000000000003";
export const LOG = "1200000000000000004";
export const OWNER = user("1000000000000000001", "olivia", "Olivia");
export const ADMIN = user("1000000000000000002", "alice_mod", "Alice Moderator");
export const MEMBER = user("1000000000000000003", "bob", "Bob");
export const SENIOR = user("1000000000000000004", "carol", "Carol");
/** Capital i for a lower-case L: a look-alike of the admin's name. */
export const IMPOSTOR = user("1000000000000000005", "alice_rnod", "AIice Moderator");
/** Named like the server, with an official-sounding word. */
export const SERVER_IMPOSTOR = user("1000000000000000006", "acme_help", "Acme Crypto Support");

export const ROLE = { admins: "1300000000000000001", bot: "1300000000000000002", senior: "1300000000000000003" } as const;
export const EVERYONE_PERMS = P.ViewChannel | P.SendMessages | P.ReadMessageHistory | P.UseApplicationCommands;
export const BOT_PERMS = EVERYONE_PERMS | P.ManageMessages | P.BanMembers | P.ModerateMembers;

/** The token format discord.js and the config expect: base64 of the bot id, then two parts. */
export const TOKEN = `${Buffer.from(BOT.id).toString("base64url")}.GfakeT.${"x".repeat(27)}`;

export function buildWorld(fake: FakeDiscord): void {
  fake.token = TOKEN;
  fake.addGuild({
    id: GUILD_ID,
    name: "Acme Crypto",
    owner_id: OWNER.id,
    system_channel_id: GENERAL,
    roles: [
      role(GUILD_ID, "@everyone", EVERYONE_PERMS, 0),
      role(ROLE.bot, "svc", BOT_PERMS, 2),
      role(ROLE.admins, "Admins", P.Administrator, 3),
      role(ROLE.senior, "Senior", EVERYONE_PERMS, 4),
    ],
    channels: [
      { id: GENERAL, type: 0, name: "general", position: 0, permission_overwrites: [] },
      { id: LOCKED, type: 0, name: "announcements", position: 1, permission_overwrites: [{ id: ROLE.bot, type: 0, allow: "0", deny: String(P.ManageMessages) }] },
      { id: LOG, type: 0, name: "svc-log", position: 2, permission_overwrites: [] },
    ],
    members: [member(OWNER), member(ADMIN, [ROLE.admins]), member(MEMBER), member(SENIOR, [ROLE.senior]), member(IMPOSTOR), member(SERVER_IMPOSTOR), member(BOT, [ROLE.bot])],
  });
}

const rawMember = (fake: FakeDiscord, u: RawUser): RawMember => {
  const m = fake.guilds.get(GUILD_ID)?.members.find((x) => x.user.id === u.id);
  if (!m) throw new Error(`${u.username} is not in the server`);
  return m;
};

/** A member posts in a channel (MESSAGE_CREATE); answers the message id. */
export function post(fake: FakeDiscord, from: RawUser, content: string, channelId = GENERAL): string {
  const id = nextId();
  const { user: _u, ...m } = rawMember(fake, from);
  fake.dispatch("MESSAGE_CREATE", {
    id,
    channel_id: channelId,
    guild_id: GUILD_ID,
    author: from,
    member: m,
    content,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: 0,
  });
  return id;
}

/** Someone edits a message (MESSAGE_UPDATE carries the whole new message). */
export function edit(fake: FakeDiscord, from: RawUser, id: string, content: string, channelId = GENERAL): void {
  const { user: _u, ...m } = rawMember(fake, from);
  fake.dispatch("MESSAGE_UPDATE", {
    id, channel_id: channelId, guild_id: GUILD_ID, author: from, member: m, content,
    timestamp: new Date().toISOString(), edited_timestamp: new Date().toISOString(),
    tts: false, mention_everyone: false, mentions: [], mention_roles: [], attachments: [], embeds: [], pinned: false, type: 0,
  });
}

/** Someone writes to the bot directly (a DM channel, no server). Answers the DM channel id. */
export function directMessage(fake: FakeDiscord, from: RawUser, content: string): string {
  const channelId = `8${from.id.slice(1)}`;
  fake.dms.set(channelId, { id: channelId, type: 1, recipients: [from] });
  fake.dispatch("MESSAGE_CREATE", {
    id: nextId(), channel_id: channelId, channel_type: 1, author: from, content,
    timestamp: new Date().toISOString(), edited_timestamp: null,
    tts: false, mention_everyone: false, mentions: [], mention_roles: [], attachments: [], embeds: [], pinned: false, type: 0,
  });
  return channelId;
}

/** Permissions Discord computes for the invoking member (sent with every interaction). */
function memberPermissions(fake: FakeDiscord, u: RawUser): bigint {
  const g = fake.guilds.get(GUILD_ID);
  if (!g) return 0n;
  if (u.id === g.owner_id) return P.Administrator | EVERYONE_PERMS;
  const roles = rawMember(fake, u).roles;
  return g.roles.filter((r) => r.id === GUILD_ID || roles.includes(r.id)).reduce((acc, r) => acc | BigInt(r.permissions), 0n);
}

export type SlashOption = { name: string; type: number; value?: string | number; options?: SlashOption[] };

/** A member runs a slash command (INTERACTION_CREATE, type 2); answers the interaction id. */
export function slash(fake: FakeDiscord, from: RawUser, name: string, options: SlashOption[] = [], channelId = GENERAL): string {
  const payload = interaction(fake, from, name, options, channelId);
  fake.dispatch("INTERACTION_CREATE", payload);
  return payload.id;
}

/** The raw interaction Discord sends (over the gateway, or signed to the HTTP endpoint). */
export function interaction(fake: FakeDiscord, from: RawUser, name: string, options: SlashOption[] = [], channelId = GENERAL): { id: string; type: 2 } & Record<string, unknown> {
  const id = nextId();
  return {
    id,
    application_id: fake.applicationId,
    type: 2,
    token: `tok-${id}`,
    version: 1,
    guild_id: GUILD_ID,
    channel_id: channelId,
    channel: { id: channelId, type: 0 },
    app_permissions: String(BOT_PERMS),
    entitlements: [],
    locale: "en-US",
    guild_locale: "en-US",
    authorizing_integration_owners: { "0": GUILD_ID },
    context: 0,
    member: { ...rawMember(fake, from), permissions: String(memberPermissions(fake, from)) },
    data: { id: nextId(), name, type: 1, guild_id: GUILD_ID, ...(options.length > 0 ? { options } : {}) },
  };
}

/** Someone joins the server (GUILD_MEMBER_ADD). */
export function join(fake: FakeDiscord, u: RawUser): void {
  const m = member(u);
  fake.guilds.get(GUILD_ID)?.members.push(m);
  fake.dispatch("GUILD_MEMBER_ADD", { ...m, guild_id: GUILD_ID });
}

/** The ephemeral answer to an interaction: the deferral, then the edited original. */
export async function answerTo(fake: FakeDiscord, interactionId: string): Promise<{ deferFlags: number; content: string }> {
  const deferred = await fake.waitForCall("POST", new RegExp(`^/interactions/${interactionId}/`, "u"));
  const edit = await fake.waitForCall("PATCH", new RegExp(`^/webhooks/\\d+/tok-${interactionId}/messages/@original$`, "u"));
  const d = deferred.body as { type: number; data?: { flags?: number } };
  return { deferFlags: d.type === 5 ? (d.data?.flags ?? 0) : -1, content: (edit.body as { content: string }).content };
}
