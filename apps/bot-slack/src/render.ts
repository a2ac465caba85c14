import type { Reply } from "@svc/bot-kernel";
import { plainText } from "@svc/bot-kernel";

/** Slack's own limits: 50 blocks a message, 3000 characters a section, 150 a header. */
const MAX_BLOCKS = 50;
const MAX_SECTION = 3000;
const MAX_HEADER = 150;
const MAX_FALLBACK = 3000;

/** mrkdwn needs only these three escaped (https://docs.slack.dev/messaging/formatting-message-text). */
export const escapeMrkdwn = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export type SlackBlock = Record<string, unknown>;

export interface RenderedSlack {
  /** The notification and screen-reader text; also what clients without blocks show. */
  readonly text: string;
  readonly blocks: SlackBlock[];
}

/**
 * Kernel replies as Block Kit. Every string is user-influenced (names, entities), so all
 * mrkdwn is escaped and headers are plain_text; code spans lose backticks so a value cannot
 * close its own span. Unfurls are turned off by the port: a preview would fetch the scam link.
 */
export function renderBlocks(r: Reply): RenderedSlack {
  const blocks: SlackBlock[] = [];
  for (const b of r.blocks) {
    if (b.type === "heading") blocks.push({ type: "header", text: { type: "plain_text", text: cut(b.text, MAX_HEADER), emoji: true } });
    else if (b.type === "note") blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: cut(escapeMrkdwn(b.text), MAX_SECTION) }] });
    else {
      const body = b.type === "list" ? b.items.map((i) => `• ${escapeMrkdwn(i)}`).join("\n") : b.type === "code" ? `\`${escapeMrkdwn(b.text.replaceAll("`", "'"))}\`` : escapeMrkdwn(b.text);
      if (body.trim().length > 0) blocks.push({ type: "section", text: { type: "mrkdwn", text: cut(body, MAX_SECTION) } });
    }
  }
  const urls = (r.buttons ?? []).filter((b): b is { label: string; url: string } => "url" in b);
  if (urls.length > 0) {
    blocks.push({ type: "actions", elements: urls.slice(0, 5).map((b, i) => ({ type: "button", action_id: `link_${i}`, text: { type: "plain_text", text: cut(b.label, 75) }, url: b.url })) });
  }
  if (blocks.length > MAX_BLOCKS) blocks.splice(MAX_BLOCKS - 1, blocks.length, { type: "context", elements: [{ type: "mrkdwn", text: "…" }] });
  return { text: cut(plainText(r), MAX_FALLBACK), blocks };
}
