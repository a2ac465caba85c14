import { parseEntity } from "@svc/core";
import { commandSyntax, spell } from "../commands.js";
import type { ReportSink, StatsStore } from "../ports.js";
import { defang } from "../render.js";
import { text } from "../reply.js";
import type { FeatureModule, KernelServices } from "./feature.js";

export interface ReportsPorts {
  readonly reports: ReportSink;
  readonly stats: StatsStore;
}

/** `/report <entity> [category|false_positive]`: community reports and appeals, reviewed before they change verdicts. */
export function reportsFeature(k: KernelServices, p: ReportsPorts): FeatureModule {
  return {
    name: "reports",
    actions: {
      // "Not a scam? Report it" under a warning: a false-positive appeal from whoever pressed it.
      fp: async (ctx, value) => {
        const e = parseEntity(value);
        if (!e.ok) return "That entity can no longer be reported.";
        const filed = await p.reports.file({
          entity: { type: e.entity.type, value: e.entity.value, id: e.entity.id },
          category: "other",
          feedback: "false_positive",
          reporter: { platform: k.platform, userId: ctx.sender.id },
          channel: { platform: k.platform, chatId: ctx.chatId },
          reportedAt: k.clock.now().toISOString(),
        });
        await p.stats.add(ctx.chatId, "reports");
        const s = await k.settingsFor(ctx.chatId);
        await k.log(s, { action: "appeal filed (false positive, button)", policy: s.policy, chatId: ctx.chatId, user: ctx.sender, detail: `Entity: ${e.entity.id}; report ${filed.id}` });
        return `Thanks: your appeal is filed as ${filed.id}; reviewers look at it.`;
      },
    },
    commands: {
      report: async (run, cmd) => {
        const { ctx, settings: s } = run;
        const d = k.dialect;
        const e = parseEntity(cmd.entity);
        if (!e.ok) return run.say(text(`I can't report that: ${e.error.message}`), text(`Usage: ${commandSyntax(d, "report")}`));
        const filed = await p.reports.file({
          entity: { type: e.entity.type, value: e.entity.value, id: e.entity.id },
          category: cmd.category,
          ...(cmd.feedback ? { feedback: cmd.feedback } : {}),
          reporter: { platform: k.platform, userId: ctx.sender.id },
          channel: { platform: k.platform, chatId: ctx.chatId },
          reportedAt: run.now.toISOString(),
        });
        await p.stats.add(ctx.chatId, "reports");
        if (cmd.feedback === "false_positive") {
          await k.log(s, { action: "appeal filed (false positive)", policy: s.policy, chatId: ctx.chatId, user: ctx.sender, detail: `Entity: ${e.entity.id}; report ${filed.id}` });
          return run.say(text(`Thanks: your appeal for ${defang(e.entity.value)} is filed as ${filed.id}. Reviewers look at it, and group admins can approve the domain with ${spell(d, "allowlist")} domain <domain>.`));
        }
        return run.say(text(`Thanks: ${defang(e.entity.value)} is reported as ${cmd.category} (${filed.id}). Reports are reviewed before they change verdicts.`));
      },
    },
  };
}
