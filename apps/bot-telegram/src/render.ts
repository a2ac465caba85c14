import type { Reply } from "@svc/bot-kernel";
import type { InlineKeyboardButton } from "grammy/types";

/** Telegram's limit is 4096 characters after entity parsing; stay clear of it. */
const MAX_TEXT = 4000;

export const escapeHtml = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

export interface Rendered {
  readonly text: string;
  readonly parse_mode: "HTML";
  readonly link_preview_options: { readonly is_disabled: true };
  readonly reply_markup?: { readonly inline_keyboard: InlineKeyboardButton[][] };
}

/**
 * Kernel replies as Telegram HTML. Every string is escaped (names and entities are user
 * input), and link previews are off: a preview would fetch and advertise the very scam
 * link being warned about.
 */
export function renderReply(r: Reply): Rendered {
  const parts: string[] = [];
  for (const b of r.blocks) {
    if (b.type === "heading") parts.push(`<b>${escapeHtml(b.text)}</b>`);
    else if (b.type === "code") parts.push(`<code>${escapeHtml(b.text)}</code>`);
    else if (b.type === "note") parts.push(`<i>${escapeHtml(b.text)}</i>`);
    else if (b.type === "list") parts.push(b.items.map((i) => `• ${escapeHtml(i)}`).join("\n"));
    else parts.push(escapeHtml(b.text));
  }
  let text = parts.join("\n");
  if (text.length > MAX_TEXT) {
    // Cut outside any tag, then close what the cut left open.
    text = text.slice(0, MAX_TEXT);
    const lt = text.lastIndexOf("<");
    if (lt > text.lastIndexOf(">")) text = text.slice(0, lt);
    text = `${text}…`;
    for (const tag of ["code", "i", "b"]) {
      const opens = text.split(`<${tag}>`).length - 1;
      const closes = text.split(`</${tag}>`).length - 1;
      if (opens > closes) text += `</${tag}>`;
    }
  }
  const buttons = (r.buttons ?? []).map((b): InlineKeyboardButton[] => ["url" in b ? { text: b.label, url: b.url } : { text: b.label, callback_data: b.action }]);
  return {
    text,
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
    ...(buttons.length > 0 ? { reply_markup: { inline_keyboard: buttons } } : {}),
  };
}
