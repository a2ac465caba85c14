/**
 * Replies are neutral blocks: the kernel says what to show, each app decides how (Telegram
 * HTML, Discord embeds, Slack blocks, WhatsApp plain text). Every string inside is plain
 * text that may contain user-controlled content, so renderers must escape it.
 */
export type Block =
  | { readonly type: "heading"; readonly text: string }
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "list"; readonly items: readonly string[] }
  /** Something the user types back verbatim (a command, an entity). */
  | { readonly type: "code"; readonly text: string }
  /** Small print: disclaimers, appeal paths. */
  | { readonly type: "note"; readonly text: string };

export type Button =
  | { readonly label: string; readonly url: string }
  /** An opaque action id the app routes back to the kernel (≤ 64 bytes on Telegram). */
  | { readonly label: string; readonly action: string };

export interface Reply {
  readonly blocks: readonly Block[];
  readonly buttons?: readonly Button[];
}

export const heading = (text: string): Block => ({ type: "heading", text });
export const text = (t: string): Block => ({ type: "text", text: t });
export const list = (items: readonly string[]): Block => ({ type: "list", items });
export const code = (t: string): Block => ({ type: "code", text: t });
export const note = (t: string): Block => ({ type: "note", text: t });

export const reply = (...blocks: Block[]): Reply => ({ blocks });

/** Plain-text rendering: for logs, WhatsApp, and assertions in tests. */
export function plainText(r: Reply): string {
  const out: string[] = [];
  for (const b of r.blocks) {
    if (b.type === "list") out.push(...b.items.map((i) => `• ${i}`));
    else out.push(b.text);
  }
  return out.join("\n");
}
