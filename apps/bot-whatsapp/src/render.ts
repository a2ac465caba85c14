import type { Reply } from "@svc/bot-kernel";

/** WhatsApp's own limit on a text message body. */
export const MAX_TEXT = 4096;

/**
 * WhatsApp markup only styles text (no link or mention can be forged with it), so user text is
 * kept as typed (commands such as false_positive must stay copyable); only a stray triple
 * backtick is broken up, as it would turn the rest of the reply monospace.
 */
const inert = (s: string): string => s.replaceAll("```", "'''");

/**
 * A kernel reply as WhatsApp text: headings bold, notes italic, code monospace. WhatsApp
 * groups take no interactive messages, so link buttons become lines and action buttons are
 * left out (every kernel action has a typed command too).
 */
export function renderText(r: Reply): string {
  const out: string[] = [];
  for (const b of r.blocks) {
    if (b.type === "heading") out.push(`*${inert(b.text)}*`);
    else if (b.type === "note") out.push(`_${inert(b.text)}_`);
    else if (b.type === "code") out.push(`\`\`\`${b.text.replaceAll("`", "'")}\`\`\``);
    else if (b.type === "list") out.push(...b.items.map((i) => `• ${inert(i)}`));
    else out.push(inert(b.text));
  }
  for (const btn of r.buttons ?? []) if ("url" in btn) out.push(`${inert(btn.label)}: ${btn.url}`);
  const text = out.join("\n");
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}
