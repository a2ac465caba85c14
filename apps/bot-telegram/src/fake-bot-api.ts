/**
 * A fake Telegram Bot API for tests: answers Bot API methods as Telegram does (the JSON of
 * core.telegram.org/bots/api), records every call, and serves them either over HTTP on
 * 127.0.0.1 (`listen`, for a bot whose `apiRoot` points here, as for a self-hosted Bot API
 * server) or as a grammY transformer (no socket, for the fastest tests).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Clock } from "@svc/bot-kernel";
import type { Transformer } from "grammy";
import type { ApiResponse, ChatMember, User } from "grammy/types";

export interface Call {
  readonly method: string;
  readonly payload: Record<string, unknown>;
}

export type Responder = (payload: Record<string, unknown>) => ApiResponse<unknown> | undefined;

const ok = <T>(result: T): ApiResponse<T> => ({ ok: true, result });

export interface AdminRights {
  readonly canDelete?: boolean;
  readonly canRestrict?: boolean;
}

export function adminMember(u: User, status: "creator" | "administrator", rights: AdminRights = {}): ChatMember {
  return status === "creator"
    ? { status, user: u, is_anonymous: false }
    : {
        status,
        user: u,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: rights.canDelete ?? true,
        can_manage_video_chats: false,
        can_restrict_members: rights.canRestrict ?? true,
        can_promote_members: false,
        can_change_info: false,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_send_welcome_messages: false,
      };
}

export class FakeBotApi {
  readonly calls: Call[] = [];
  /** Admins per chat, the first one the owner. */
  readonly admins = new Map<number, User[]>();
  /** Users seen in updates: getChatMember knows them, as Telegram would. */
  readonly known = new Map<number, User>();
  /** The bot's own rights per chat (getChatMember on the bot). */
  readonly botRights = new Map<number, AdminRights>();
  private readonly queued = new Map<string, Responder[]>();
  private messageId = 5000;

  constructor(
    private readonly clock: Clock,
    private readonly botId: number,
  ) {}

  /** Queue a one-time answer for the next call of `method`. */
  once(method: string, r: Responder): void {
    const q = this.queued.get(method) ?? [];
    q.push(r);
    this.queued.set(method, q);
  }

  answer(method: string, payload: Record<string, unknown>): ApiResponse<unknown> {
    this.calls.push({ method, payload });
    const once = this.queued.get(method)?.shift()?.(payload);
    if (once) return once;
    switch (method) {
      case "sendMessage":
      case "sendInvoice":
        return ok({ message_id: ++this.messageId, date: Math.floor(this.clock.now().getTime() / 1000), chat: { id: payload.chat_id, type: "supergroup", title: "Group" }, text: String(payload.text ?? "") });
      case "getChatAdministrators": {
        const list = this.admins.get(Number(payload.chat_id));
        if (!list) return { ok: false, error_code: 400, description: "Bad Request: there are no administrators in the private chat" };
        return ok(list.map((u, i) => adminMember(u, i === 0 ? "creator" : "administrator")));
      }
      case "getChatMember": {
        const chatId = Number(payload.chat_id);
        const id = Number(payload.user_id);
        if (id < 0) return { ok: false, error_code: 400, description: "Bad Request: invalid user_id specified" };
        if (id === this.botId) {
          const me: User = { id, is_bot: true, first_name: "svc" };
          const rights = this.botRights.get(chatId);
          return ok(rights ? adminMember(me, "administrator", rights) : { status: "member", user: me });
        }
        const isAdmin = (this.admins.get(chatId) ?? []).some((u) => u.id === id);
        const user = this.known.get(id) ?? { id, is_bot: false, first_name: `User ${id}` };
        return ok(isAdmin ? adminMember(user, "administrator") : { status: "member", user });
      }
      default:
        return ok(true);
    }
  }

  /** The network replaced by this fake, in-process. */
  transformer(): Transformer {
    return async (_prev, method, payload) => this.answer(method, (payload ?? {}) as Record<string, unknown>) as Awaited<ReturnType<Transformer>>;
  }

  /**
   * Serves `POST /bot<token>/<method>` on 127.0.0.1 with JSON (or form) bodies, as the Bot API
   * does; `apiRoot` is the address to give the bot. Only `token` is accepted (401 otherwise).
   */
  async listen(token: string): Promise<{ readonly apiRoot: string; close(): Promise<void> }> {
    const server: Server = createServer((req, res) => {
      void (async () => {
        const m = /^\/bot([^/]+)\/(\w+)$/u.exec(req.url ?? "");
        const reply = (status: number, body: unknown): void => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        };
        if (!m) return reply(404, { ok: false, error_code: 404, description: "Not Found" });
        if (m[1] !== token) return reply(401, { ok: false, error_code: 401, description: "Unauthorized" });
        const payload = await readPayload(req);
        const r = this.answer(m[2] as string, payload);
        reply(r.ok ? 200 : r.error_code, r);
      })().catch((e: unknown) => {
        res.writeHead(500);
        res.end(String(e));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    return {
      apiRoot: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    };
  }
}

async function readPayload(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks).toString("utf8");
  if (body.length === 0) return {};
  const type = req.headers["content-type"] ?? "";
  if (type.includes("application/json")) return JSON.parse(body) as Record<string, unknown>;
  if (type.includes("x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(body));
  // grammY sends multipart only with files, which the bot never uploads.
  throw new Error(`unexpected content type ${type}`);
}
