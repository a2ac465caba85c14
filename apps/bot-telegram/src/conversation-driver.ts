import { spell, type ConversationDriver, type InMemoryScreening, type Observed, type Person } from "@svc/bot-kernel";
import type { User } from "grammy/types";
import { ADMIN, createHttpHarness, GROUP_ID, MEMBER } from "./test-harness.js";

const RAIDER_BASE = 7000;

const userOf = (p: Person): User =>
  p.role === "admin" ? ADMIN : p.role === "member" ? MEMBER : { id: RAIDER_BASE + p.n, is_bot: false, first_name: `Raider ${p.n}` };

function personOf(id: unknown): Person | null {
  const n = Number(id);
  if (n === ADMIN.id) return { role: "admin" };
  if (n === MEMBER.id) return { role: "member" };
  return n > RAIDER_BASE && n < RAIDER_BASE + 1000 ? { role: "raider", n: n - RAIDER_BASE } : null;
}

/** Telegram HTML (parse_mode HTML) as the plain text a user reads. */
const plain = (html: string): string =>
  html.replace(/<[^>]{1,200}>/gu, "").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");

/**
 * The conversation contract's driver for Telegram: updates in as Telegram sends them, the bot's
 * Bot API calls out over HTTP to the fake Bot API on 127.0.0.1, read back as `Observed`.
 */
export async function telegramConversationDriver(screening: InMemoryScreening): Promise<ConversationDriver> {
  const h = await createHttpHarness({ screening });
  let seen = 0;
  return {
    dialect: "telegram",
    capabilities: { delete: true, ban: true, mute: true, unmute: true, joins: true },
    addBotAsAdmin: () => h.botPromoted(),
    post: (from, text) => h.group(userOf(from), text),
    command: (from, name, args) => h.group(userOf(from), `${spell("telegram", name)}${args ? ` ${args}` : ""}`),
    dm: (from, text) => h.dm(userOf(from), text),
    join: (who) => h.join(userOf(who)),
    async advance(ms) {
      h.clock.advance(ms);
      await h.app.tick();
    },
    async take() {
      const fresh = h.calls.slice(seen);
      seen = h.calls.length;
      return fresh.flatMap((c): Observed[] => {
        const p = c.payload;
        switch (c.method) {
          case "sendMessage": {
            const chat = Number(p.chat_id);
            return [{ kind: "message", where: chat === GROUP_ID ? "group" : chat > 0 ? "private" : "elsewhere", text: plain(String(p.text)) }];
          }
          case "deleteMessage":
            return [{ kind: "delete" }];
          case "banChatMember":
            return [{ kind: "ban", who: personOf(p.user_id) }];
          case "restrictChatMember": {
            const perms = (typeof p.permissions === "string" ? JSON.parse(p.permissions) : p.permissions) as { can_send_messages?: boolean };
            return [{ kind: perms.can_send_messages ? "unmute" : "mute", who: personOf(p.user_id) }];
          }
          default:
            return [];
        }
      });
    },
    close: () => h.close(),
  };
}
