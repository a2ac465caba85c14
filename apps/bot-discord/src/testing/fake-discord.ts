import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

/**
 * A stand-in for Discord on 127.0.0.1: the REST API under `/v10` and a gateway WebSocket, both
 * speaking Discord's wire format, so tests drive the real discord.js client (REST routing,
 * gateway handshake, caches, permission maths) with no network. Only the routes and gateway
 * events the bot uses are implemented; anything else answers 404 with Discord's error body, so
 * an unexpected call shows up in `calls` and fails the test that depends on it.
 */

export interface RawUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: null;
  bot?: boolean;
}

export interface RawRole {
  id: string;
  name: string;
  permissions: string;
  position: number;
  color: number;
  hoist: boolean;
  managed: boolean;
  mentionable: boolean;
  flags: number;
}

export interface RawMember {
  user: RawUser;
  nick: string | null;
  roles: string[];
  joined_at: string;
  deaf: boolean;
  mute: boolean;
  flags: number;
  communication_disabled_until?: string | null;
}

export interface RawChannel {
  id: string;
  type: number;
  name: string;
  guild_id?: string;
  position: number;
  permission_overwrites: { id: string; type: 0 | 1; allow: string; deny: string }[];
}

export interface RawGuild {
  id: string;
  name: string;
  owner_id: string;
  system_channel_id: string | null;
  roles: RawRole[];
  channels: RawChannel[];
  members: RawMember[];
}

export interface ApiCall {
  readonly method: string;
  /** Without the `/v10` prefix, e.g. `/channels/1/messages`. */
  readonly path: string;
  readonly body: unknown;
}

type Handler = (call: ApiCall, params: string[]) => { status: number; body?: unknown } | undefined;

export const user = (id: string, username: string, globalName: string | null = null, bot = false): RawUser => ({
  id,
  username,
  global_name: globalName,
  discriminator: "0",
  avatar: null,
  ...(bot ? { bot: true } : {}),
});

export const role = (id: string, name: string, permissions: bigint, position: number): RawRole => ({
  id,
  name,
  permissions: permissions.toString(),
  position,
  color: 0,
  hoist: false,
  managed: false,
  mentionable: false,
  flags: 0,
});

export const member = (u: RawUser, roles: string[] = [], nick: string | null = null): RawMember => ({
  user: u,
  nick,
  roles,
  joined_at: "2026-01-01T00:00:00.000Z",
  deaf: false,
  mute: false,
  flags: 0,
});

let snowflake = 1_400_000_000_000_000_000n;
export const nextId = (): string => String(++snowflake);

export class FakeDiscord {
  readonly calls: ApiCall[] = [];
  readonly guilds = new Map<string, RawGuild>();
  /** Direct-message channels by id. */
  readonly dms = new Map<string, { id: string; type: 1; recipients: RawUser[] }>();
  /** Paths (method + " " + path regex source) answered with an error instead: simulates missing rights. */
  readonly refusals: { method: string; path: RegExp; status: number; code: number; message: string }[] = [];
  private socket: WebSocket | null = null;
  private seq = 0;
  private readonly waiters: { match: (c: ApiCall) => boolean; resolve: (c: ApiCall) => void }[] = [];
  private readonly routes: [string, RegExp, Handler][] = [];
  identify: Record<string, unknown> | null = null;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly botUser: RawUser,
    readonly applicationId: string,
  ) {
    this.installRoutes();
  }

  static async start(botUser: RawUser, applicationId = botUser.id): Promise<FakeDiscord> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    const fake = new FakeDiscord(http, wss, botUser, applicationId);
    http.on("request", (req, res) => void fake.onRequest(req, res));
    wss.on("connection", (ws) => fake.onConnection(ws));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  /** What to give discord.js as `rest.api`. */
  get apiRoot(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  addGuild(g: RawGuild): void {
    for (const c of g.channels) c.guild_id = g.id;
    this.guilds.set(g.id, g);
  }

  /** Sends a gateway DISPATCH (op 0) with the next sequence number. */
  dispatch(t: string, d: unknown): void {
    if (!this.socket) throw new Error("no gateway connection");
    this.socket.send(JSON.stringify({ op: 0, t, s: ++this.seq, d }));
  }

  /** Resolves with the first API call (already made, or future) that matches. */
  waitForCall(method: string, path: RegExp, after = 0): Promise<ApiCall> {
    const match = (c: ApiCall): boolean => c.method === method && path.test(c.path);
    const done = this.calls.slice(after).find(match);
    if (done) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${method} ${path.source}; calls: ${this.calls.map((c) => `${c.method} ${c.path}`).join(", ")}`)), 3000);
      this.waiters.push({ match, resolve: (c) => (clearTimeout(timer), resolve(c)) });
    });
  }

  callsTo(method: string, path: RegExp): ApiCall[] {
    return this.calls.filter((c) => c.method === method && path.test(c.path));
  }

  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  // ------------------------------------------------------------------ gateway

  private onConnection(ws: WebSocket): void {
    this.socket = ws;
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 } }));
    ws.on("message", (data) => {
      const p = JSON.parse(String(data)) as { op: number; d: unknown };
      if (p.op === 1) ws.send(JSON.stringify({ op: 11 }));
      else if (p.op === 2) {
        this.identify = p.d as Record<string, unknown>;
        this.dispatch("READY", {
          v: 10,
          user: this.botUser,
          guilds: [...this.guilds.keys()].map((id) => ({ id, unavailable: true })),
          session_id: "fake-session",
          resume_gateway_url: `ws://127.0.0.1:${this.port}`,
          shard: [0, 1],
          application: { id: this.applicationId, flags: 0 },
        });
        for (const g of this.guilds.values()) this.dispatch("GUILD_CREATE", this.guildPayload(g));
      }
    });
  }

  guildPayload(g: RawGuild): Record<string, unknown> {
    return {
      ...g,
      icon: null,
      features: [],
      emojis: [],
      stickers: [],
      presences: [],
      voice_states: [],
      threads: [],
      stage_instances: [],
      guild_scheduled_events: [],
      member_count: g.members.length,
      large: false,
      unavailable: false,
      joined_at: "2026-01-01T00:00:00.000Z",
      premium_tier: 0,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      mfa_level: 0,
      nsfw_level: 0,
      preferred_locale: "en-US",
    };
  }

  // ------------------------------------------------------------------ REST

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://x");
    const path = decodeURIComponent(url.pathname).replace(/^\/v\d+/u, "");
    let body: unknown = null;
    if (raw) {
      const type = req.headers["content-type"] ?? "";
      // Messages with files arrive as multipart with a payload_json part; the bot sends none.
      body = type.includes("json") ? JSON.parse(raw) : raw;
    }
    const call: ApiCall = { method: req.method ?? "GET", path, body };
    this.calls.push(call);
    for (const w of [...this.waiters]) {
      if (w.match(call)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(call);
      }
    }
    const answer = (status: number, b?: unknown): void => {
      res.writeHead(status, b === undefined ? {} : { "content-type": "application/json" });
      res.end(b === undefined ? undefined : JSON.stringify(b));
    };
    if (req.headers.authorization !== `Bot ${this.token}`) {
      // Interaction callbacks and webhooks are authorised by their token, not the bot's.
      if (!path.startsWith("/interactions/") && !path.startsWith("/webhooks/")) return answer(401, { message: "401: Unauthorized", code: 0 });
    }
    const refusal = this.refusals.find((r) => r.method === call.method && r.path.test(path));
    if (refusal) return answer(refusal.status, { message: refusal.message, code: refusal.code });
    for (const [method, re, handler] of this.routes) {
      if (method !== call.method) continue;
      const m = re.exec(path);
      if (!m) continue;
      const r = handler(call, m.slice(1));
      if (r) return answer(r.status, r.body);
    }
    return answer(404, { message: "404: Not Found", code: 0 });
  }

  /** The bot token the fake accepts (`Authorization: Bot <token>`). */
  token = "";

  private route(method: string, re: RegExp, h: Handler): void {
    this.routes.push([method, re, h]);
  }

  private message(channelId: string, b: Record<string, unknown>, author: RawUser = this.botUser): Record<string, unknown> {
    return {
      id: nextId(),
      channel_id: channelId,
      author,
      content: b.content ?? "",
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
      flags: b.flags ?? 0,
      components: b.components ?? [],
    };
  }

  private findMember(guildId: string, userId: string): RawMember | undefined {
    return this.guilds.get(guildId)?.members.find((m) => m.user.id === userId);
  }

  private installRoutes(): void {
    const unknown = (code: number, what: string) => ({ status: 404, body: { message: `Unknown ${what}`, code } });
    this.route("GET", /^\/gateway\/bot$/u, () => ({
      status: 200,
      body: { url: `ws://127.0.0.1:${this.port}`, shards: 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 } },
    }));
    this.route("PUT", /^\/applications\/(\d+)(?:\/guilds\/\d+)?\/commands$/u, (c) => ({
      status: 200,
      body: (c.body as { name: string }[]).map((cmd) => ({ ...cmd, id: nextId(), application_id: this.applicationId, version: nextId(), type: 1 })),
    }));
    this.route("POST", /^\/interactions\/(\d+)\/([\w.-]+)\/callback$/u, () => ({ status: 204 }));
    this.route("PATCH", /^\/webhooks\/(\d+)\/([\w.-]+)\/messages\/@original$/u, (c) => ({ status: 200, body: this.message("0", c.body as Record<string, unknown>) }));
    this.route("POST", /^\/webhooks\/(\d+)\/([\w.-]+)$/u, (c) => ({ status: 200, body: this.message("0", c.body as Record<string, unknown>) }));
    this.route("POST", /^\/channels\/(\d+)\/messages$/u, (c, [channelId]) => ({ status: 200, body: this.message(channelId as string, c.body as Record<string, unknown>) }));
    this.route("DELETE", /^\/channels\/(\d+)\/messages\/(\d+)$/u, () => ({ status: 204 }));
    this.route("GET", /^\/channels\/(\d+)$/u, (_c, [id]) => {
      for (const g of this.guilds.values()) {
        const ch = g.channels.find((x) => x.id === id);
        if (ch) return { status: 200, body: ch };
      }
      const dm = this.dms.get(id as string);
      return dm ? { status: 200, body: dm } : unknown(10003, "Channel");
    });
    this.route("GET", /^\/users\/(\d+)$/u, (_c, [id]) => {
      for (const g of this.guilds.values()) {
        const m = g.members.find((x) => x.user.id === id);
        if (m) return { status: 200, body: m.user };
      }
      return unknown(10013, "User");
    });
    this.route("POST", /^\/users\/@me\/channels$/u, (c) => {
      const rid = (c.body as { recipient_id: string }).recipient_id;
      const dm = { id: `9${rid.slice(1)}`, type: 1 as const, recipients: [user(rid, "someone")] };
      this.dms.set(dm.id, dm);
      return { status: 200, body: dm };
    });
    this.route("PUT", /^\/guilds\/(\d+)\/bans\/(\d+)$/u, () => ({ status: 204 }));
    this.route("GET", /^\/guilds\/(\d+)\/members$/u, (_c, [g]) => ({ status: 200, body: this.guilds.get(g as string)?.members ?? [] }));
    this.route("GET", /^\/guilds\/(\d+)\/members\/(\d+)$/u, (_c, [g, u]) => {
      const m = this.findMember(g as string, u as string);
      return m ? { status: 200, body: m } : unknown(10007, "Member");
    });
    this.route("PATCH", /^\/guilds\/(\d+)\/members\/(\d+)$/u, (c, [g, u]) => {
      const m = this.findMember(g as string, u as string);
      if (!m) return unknown(10007, "Member");
      Object.assign(m, c.body as object);
      return { status: 200, body: m };
    });
  }
}
