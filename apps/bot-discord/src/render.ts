import type { Reply } from "@svc/bot-kernel";

/** Discord's limit is 2000 characters per message; stay clear of it. */
const MAX_CONTENT = 1900;
/** MessageFlags.SuppressEmbeds: no link preview, which would fetch and advertise the very link warned about. */
export const SUPPRESS_EMBEDS = 1 << 2;
export const EPHEMERAL = 1 << 6;

/**
 * Markdown and mention syntax in user-controlled text is shown literally. Brackets stay as they
 * are (defanged `evil[.]top` must read as such); only `](`, which would make a masked link, is broken.
 */
export const escapeMarkdown = (s: string): string => s.replace(/[\\`*_~|>#<@]/gu, (c) => `\\${c}`).replaceAll("](", "]\\(");
/** Inside a code span only the backtick matters; it is swapped for a look-alike so the span cannot be closed. */
const inCode = (s: string): string => s.replaceAll("`", "ˋ");

export interface RenderedMessage {
  readonly content: string;
  readonly flags: number;
  /** Nobody is pinged by a name or an @everyone inside a reply. */
  readonly allowedMentions: { readonly parse: readonly [] };
  readonly components?: readonly { readonly type: 1; readonly components: readonly ({ type: 2; style: 5; label: string; url: string } | { type: 2; style: 2; label: string; custom_id: string })[] }[];
}

/** Kernel replies as Discord markdown (headings bold, entities in code spans, notes in italics). */
export function renderReply(r: Reply): RenderedMessage {
  const parts: string[] = [];
  for (const b of r.blocks) {
    if (b.type === "heading") parts.push(`**${escapeMarkdown(b.text)}**`);
    else if (b.type === "code") parts.push(`\`${inCode(b.text)}\``);
    else if (b.type === "note") parts.push(`-# ${escapeMarkdown(b.text)}`);
    else if (b.type === "list") parts.push(b.items.map((i) => `• ${escapeMarkdown(i)}`).join("\n"));
    else parts.push(escapeMarkdown(b.text));
  }
  let content = parts.join("\n");
  if (content.length > MAX_CONTENT) {
    content = content.slice(0, MAX_CONTENT);
    // Never end inside a code span or on a lone escape.
    if ((content.split("`").length - 1) % 2 === 1) content = content.slice(0, content.lastIndexOf("`"));
    content = `${content.replace(/\\$/u, "")}…`;
  }
  const buttons = (r.buttons ?? []).slice(0, 5).map((b) => ("url" in b ? { type: 2 as const, style: 5 as const, label: b.label.slice(0, 80), url: b.url } : { type: 2 as const, style: 2 as const, label: b.label.slice(0, 80), custom_id: b.action.slice(0, 100) }));
  return {
    content,
    flags: SUPPRESS_EMBEDS,
    allowedMentions: { parse: [] },
    ...(buttons.length > 0 ? { components: [{ type: 1 as const, components: buttons }] } : {}),
  };
}
