import type { SupportDesk } from "../ports.js";
import { heading, text } from "../reply.js";
import type { FeatureModule, KernelServices } from "./feature.js";

export interface SupportPorts {
  readonly support: SupportDesk;
}

/** `/support <text>` (and `/paysupport`): opens a ticket an operator reads and answers. */
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
  };
}
