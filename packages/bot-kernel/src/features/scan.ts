import { parseEntity } from "@svc/core";
import { commandSyntax } from "../commands.js";
import { checkMember, officialSounding } from "../impersonation.js";
import { isVerdict, type StatsStore } from "../ports.js";
import { defang, verdictBlocks, verdictReply } from "../render.js";
import { code, heading, note, text, type Block } from "../reply.js";
import type { FeatureModule, KernelServices } from "./feature.js";

export interface ScanPorts {
  readonly stats: StatsStore;
}

/** Verdicts shown per direct message; the rest are counted. */
const SHOWN = 5;

/** Personal scanning: `/check <entity>` anywhere, and every entity of a direct or forwarded message. */
export function scanFeature(k: KernelServices, p: ScanPorts): FeatureModule {
  return {
    name: "scan",
    commands: {
      check: async (run, cmd) => {
        const e = parseEntity(cmd.entity);
        if (!e.ok) return run.say(text(`I can't check that: ${e.error.message}`), text(`Usage: ${commandSyntax(k.dialect, "check")}`));
        await p.stats.add(run.ctx.chatId, "checks");
        const outcome = await k.cache.screen(e.entity.id, e.entity.value);
        if (!isVerdict(outcome)) return run.say(heading("⚪ Could not check"), text(`${outcome.error.message} This says nothing about its safety; try again later.`));
        return run.respond(verdictReply(outcome, e.entity.value));
      },
    },
    async onPrivateMessage(msg) {
      const a = await k.monitor.assess(msg.text, { blocklist: [], allowlist: { users: [], domains: [] } });
      const blocks: Block[] = [];
      if (msg.forwardedFrom) {
        blocks.push(text(`Forwarded from ${msg.forwardedFrom.name}${msg.forwardedFrom.username ? ` (@${msg.forwardedFrom.username})` : ""}.`));
        const fwd = msg.forwardedFrom;
        const title = checkMember({ id: "forwarded", name: fwd.name, ...(fwd.username ? { username: fwd.username } : {}) }, []);
        const word = title ? null : officialSounding(fwd);
        const reason = title ? title.reason : word ? `calls itself "${word}" in its name` : null;
        if (reason) blocks.push(text(`⚠️ The sender ${reason}. Real admins and support staff never message you first, and never ask for login codes, seed phrases, wallet connections or payments.`));
      }
      if (a.assessed.length === 0) {
        blocks.push(text("I found no link, domain, wallet, e-mail address or phone number to check. Send me one, or forward a suspicious message."));
        await k.chat.reply(msg.ref, { blocks });
        return true;
      }
      await p.stats.add(msg.ref.chatId, "checks", a.assessed.length);
      for (const x of a.assessed.slice(0, SHOWN)) {
        if (x.verdict) blocks.push(...verdictBlocks(x.verdict, x.entity.value));
        else blocks.push(heading("⚪ Could not check"), code(defang(x.entity.value)), text("The check failed; this says nothing about its safety. Try again later."));
        if (x.linkMismatch) blocks.push(text(`⚠️ The link text shows ${x.linkMismatch.shown}, but the link opens ${defang(x.entity.value)}.`));
      }
      if (a.assessed.length > SHOWN) blocks.push(text(`…and ${a.assessed.length - SHOWN} more. Send them separately to check them too.`));
      const disclaimer = a.assessed.find((x) => x.verdict)?.verdict?.disclaimer;
      if (disclaimer) blocks.push(note(disclaimer));
      await k.chat.reply(msg.ref, { blocks });
      return true;
    },
  };
}
