import type { SupportDesk } from "../ports.js";
import { heading, note, text } from "../reply.js";
import type { FeatureModule, KernelServices } from "./feature.js";

export interface SupportPorts {
  readonly support: SupportDesk;
}

/** How long a claimed answer is ours to send before another process may take it (a crash mid-send). */
export const SUPPORT_LEASE_MS = 60_000;
/** Tries before an answer is given up on (the chat removed the bot, the user blocked it). */
export const SUPPORT_MAX_ATTEMPTS = 5;
/** Answers sent per tick at most. */
const PER_TICK = 20;

/**
 * `/support <text>` (and `/paysupport`): opens a ticket an operator reads and answers (the API's
 * `/v1/admin/support`, `svc support`). The answers wait in the desk's outbox; on each tick this
 * module claims its platform's, sends each to the chat the ticket was opened in, and marks it
 * delivered, so an answer reaches the user once.
 */
export function supportFeature(k: KernelServices, p: SupportPorts): FeatureModule {
  return {
    name: "support",
    commands: {
      support: async (run, cmd) => {
        if (cmd.text.length === 0) {
          return run.say(
            heading("Payment support"),
            text("Describe the problem after the command and a ticket is opened. Purchases made with the in-app currency can be refunded within 14 business days with /refund."),
          );
        }
        const t = await p.support.open({ platform: k.platform, chatId: run.ctx.chatId, userId: run.ctx.sender.id, topic: cmd.topic, text: cmd.text, openedAt: run.now.toISOString() });
        return run.say(text(`Ticket ${t.id} opened. We answer here or in a direct message.`));
      },
    },
    async tick(now) {
      const due = await p.support.claimReplies(k.platform, now, SUPPORT_LEASE_MS, PER_TICK);
      for (const r of due) {
        try {
          await k.chat.send(r.chatId, { blocks: [heading(`💬 Support answer (ticket ${r.ticketId})`), text(r.text), note("Reply with /support and the ticket number to add something.")] });
        } catch (e) {
          await p.support.deliveryFailed(r.id, e instanceof Error ? e.message : String(e), now, r.attempts >= SUPPORT_MAX_ATTEMPTS);
          continue;
        }
        await p.support.delivered(r.id, now);
      }
    },
  };
}
