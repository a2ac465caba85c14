/**
 * A fake Slack Web API on 127.0.0.1 for tests and the benchmark: it speaks the real wire format
 * (form-encoded or JSON requests, `Authorization: Bearer`, HTTP 200 with `{ ok, error }`, 429 with
 * Retry-After and `ratelimited`), knows which tokens are valid, and which channels the bot is in.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeCall {
  readonly method: string;
  readonly token: string | null;
  readonly params: Record<string, unknown>;
  /** Whether the fake answered `ok: true` (a post Slack refused never reached anyone). */
  ok?: boolean;
}

export interface FakeUser {
  readonly id: string;
  readonly name: string;
  readonly realName: string;
  readonly isAdmin?: boolean;
  readonly isBot?: boolean;
}

type Scripted = { readonly status?: number; readonly headers?: Record<string, string>; readonly body: Record<string, unknown> };

export interface FakeSlackApi {
  readonly url: string;
  readonly calls: FakeCall[];
  readonly tokens: Set<string>;
  readonly users: Map<string, FakeUser>;
  /** Channels the bot is a member of; posting elsewhere answers not_in_channel (public) or channel_not_found. */
  readonly joined: Set<string>;
  readonly publicChannels: Set<string>;
  /** Answers of oauth.v2.access per code. */
  readonly codes: Map<string, Record<string, unknown>>;
  /** One-shot answers per method, used before the normal one. */
  once(method: string, r: Scripted): void;
  sent(method: string): Record<string, unknown>[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parse(raw: string, type: string): Record<string, unknown> {
  if (type.startsWith("application/json")) return JSON.parse(raw || "{}") as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    // The Web API client sends nested arguments (blocks) as JSON strings in form fields.
    out[k] = v.startsWith("[") || v.startsWith("{") ? safeJson(v) : v;
  }
  return out;
}

const safeJson = (v: string): unknown => {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

export async function startFakeSlackApi(options: { record?: boolean } = {}): Promise<FakeSlackApi> {
  const calls: FakeCall[] = [];
  const tokens = new Set<string>();
  const users = new Map<string, FakeUser>();
  const joined = new Set<string>();
  const publicChannels = new Set<string>();
  const codes = new Map<string, Record<string, unknown>>();
  const scripted = new Map<string, Scripted[]>();
  let ts = 1_700_000_000;

  const answer = (method: string, token: string | null, p: Record<string, unknown>): Scripted => {
    const once = scripted.get(method)?.shift();
    if (once) return once;
    if (method === "oauth.v2.access") {
      const r = codes.get(String(p.code));
      if (!r) return { body: { ok: false, error: "invalid_code" } };
      codes.delete(String(p.code));
      // The token Slack issues works from now on.
      if (typeof r.access_token === "string") tokens.add(r.access_token);
      return { body: { ok: true, ...r } };
    }
    if (token === null) return { body: { ok: false, error: "not_authed" } };
    if (!tokens.has(token)) return { body: { ok: false, error: "invalid_auth" } };
    switch (method) {
      case "chat.postMessage": {
        const channel = String(p.channel);
        if (!joined.has(channel)) return { body: { ok: false, error: publicChannels.has(channel) ? "not_in_channel" : "channel_not_found" } };
        const t = `${++ts}.000100`;
        return { body: { ok: true, channel, ts: t, message: { type: "message", text: p.text, ts: t, bot_id: "B0BOT" } } };
      }
      case "conversations.join": {
        const channel = String(p.channel);
        if (!publicChannels.has(channel)) return { body: { ok: false, error: "channel_not_found" } };
        joined.add(channel);
        return { body: { ok: true, channel: { id: channel, is_channel: true } } };
      }
      case "users.info": {
        const u = users.get(String(p.user));
        if (!u) return { body: { ok: false, error: "user_not_found" } };
        return {
          body: {
            ok: true,
            user: { id: u.id, name: u.name, real_name: u.realName, is_admin: u.isAdmin === true, is_owner: false, is_bot: u.isBot === true, profile: { display_name: u.realName, real_name: u.realName } },
          },
        };
      }
      case "auth.test":
        return { body: { ok: true, url: "https://example.slack.com/", team: "Example", user: "svc", team_id: "T1", user_id: "U0BOT", bot_id: "B0BOT" } };
      default:
        return { body: { ok: false, error: "unknown_method" } };
    }
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const method = (req.url ?? "/").replace(/^\/api\//u, "").replace(/^\//u, "").split("?")[0] ?? "";
      const raw = await readBody(req);
      const params = parse(raw, req.headers["content-type"] ?? "");
      const auth = req.headers.authorization;
      const token = auth?.startsWith("Bearer ") ? auth.slice(7) : typeof params.token === "string" ? params.token : null;
      const call: FakeCall = { method, token, params };
      if (options.record !== false) calls.push(call);
      const a = answer(method, token, params);
      call.ok = a.body.ok === true;
      res.writeHead(a.status ?? 200, { "content-type": "application/json; charset=utf-8", ...a.headers });
      res.end(JSON.stringify(a.body));
    })().catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    tokens,
    users,
    joined,
    publicChannels,
    codes,
    once(method, r) {
      const q = scripted.get(method) ?? [];
      q.push(r);
      scripted.set(method, q);
    },
    sent(method) {
      return calls.filter((c) => c.method === method).map((c) => c.params);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
