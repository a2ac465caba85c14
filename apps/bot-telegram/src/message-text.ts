import type { Message, MessageEntity } from "grammy/types";

/**
 * The text the kernel scans for one message: text or caption, with every formatted link
 * (`text_link`) written out as Markdown `[label](url)`. Telegram hides a text_link's target
 * behind its label; writing both lets extraction compare them and flag "shows paypal.com,
 * opens paypa1.com". The result is handed to the kernel and dropped: it is never stored.
 */
export function scanText(m: Pick<Message, "text" | "entities" | "caption" | "caption_entities">): string {
  const body = m.text ?? m.caption ?? "";
  const entities = (m.text !== undefined ? m.entities : m.caption_entities) ?? [];
  const links = entities.filter((e): e is MessageEntity.TextLinkMessageEntity => e.type === "text_link").sort((a, b) => b.offset - a.offset);
  let out = body;
  for (const e of links) {
    // Offsets are UTF-16 code units, as are JavaScript string indices.
    const label = out.slice(e.offset, e.offset + e.length).replace(/[[\]()\r\n]/gu, " ");
    out = `${out.slice(0, e.offset)}[${label}](${e.url})${out.slice(e.offset + e.length)}`;
  }
  return out;
}

/** Who a forwarded message came from, as far as Telegram tells. */
export function forwardedFrom(m: Pick<Message, "forward_origin">): { name: string; username?: string } | null {
  const o = m.forward_origin;
  if (!o) return null;
  switch (o.type) {
    case "user": {
      const name = [o.sender_user.first_name, o.sender_user.last_name].filter(Boolean).join(" ");
      return o.sender_user.username ? { name, username: o.sender_user.username } : { name };
    }
    case "hidden_user":
      return { name: o.sender_user_name };
    case "chat":
      return o.sender_chat.type !== "private" && "title" in o.sender_chat ? { name: o.sender_chat.title } : { name: "a chat" };
    case "channel":
      return { name: o.chat.title, ...(o.chat.username ? { username: o.chat.username } : {}) };
    default:
      return null;
  }
}
