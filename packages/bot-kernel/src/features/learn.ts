import { spell } from "../commands.js";
import { baselineReply, recordLearn, routineDomains, startLearn } from "../learn-mode.js";
import { isVerdict, type StatsStore } from "../ports.js";
import { heading, note, text, type Reply } from "../reply.js";
import type { ChatSettings } from "../settings.js";
import type { CommandRun, FeatureModule, KernelServices } from "./feature.js";
import { assessMessage } from "./moderation.js";
import { lowestPlanWith, unlocksFor } from "./plans.js";

export interface LearnPorts {
  readonly stats: StatsStore;
}

/**
 * Learn mode: for N days the bot watches without acting, counting the domains the group shares
 * routinely and how often the policy would have acted; at the end it suggests an allowlist and
 * turns monitoring on. Placed before moderation: while learning, messages are only observed.
 */
export function learnFeature(k: KernelServices, p: LearnPorts): FeatureModule {
  const d = k.dialect;

  /** Screens the routine domains and suggests only those with no risk found. */
  async function baseline(s: ChatSettings, now: Date, ended: boolean): Promise<Reply> {
    const learn = s.learn as NonNullable<ChatSettings["learn"]>;
    const suggestions: string[] = [];
    for (const [domain] of routineDomains(learn, 3, 15)) {
      if (s.allowlist.domains.includes(domain)) continue;
      const outcome = await k.cache.screen(`domain:${domain}`, domain);
      if (isVerdict(outcome) && outcome.risk_level === "low") suggestions.push(domain);
    }
    return baselineReply(learn, {
      now,
      ended,
      policy: s.policy,
      suggestions,
      allowlistCommand: (dom) => `${spell(d, "allowlist")} domain ${dom}`,
      endNote: `Monitoring is now on with the "${s.policy}" policy. Change it with ${spell(d, "policy")}.`,
    });
  }

  async function finish(s: ChatSettings, now: Date, run?: CommandRun): Promise<ChatSettings> {
    const report = await baseline(s, now, true);
    const saved = await k.save({ ...s, learn: null, monitoring: true });
    if (run) await run.respond(report);
    else await k.chat.send(s.chatId, report);
    await k.log(saved, { action: "learning finished, monitoring on", policy: saved.policy, chatId: s.chatId, user: null, detail: `Messages observed: ${s.learn?.messages ?? 0}; would have acted on ${s.learn?.wouldAct ?? 0}` });
    return saved;
  }

  return {
    name: "learn",
    async expire(s, now) {
      return s.learn !== null && Date.parse(s.learn.until) <= now.getTime() ? finish(s, now) : s;
    },
    async onMessage(msg, s) {
      if (s.learn === null) return null;
      // Observe only: count what the policy would have done, act on nothing.
      const { assessment, decision } = await assessMessage(k, p.stats, msg, s);
      await k.save({ ...s, learn: recordLearn(s.learn, assessment.extraction, decision.action !== "none") });
      return { entities: assessment.assessed.length, decision, performed: [] };
    },
    commands: {
      learn: async (run, cmd) => {
        const s = run.settings;
        if (cmd.action === "start") {
          const max = unlocksFor(s, run.now).unlocks.learnDays;
          if (cmd.days > max) {
            return run.say(text(`Your plan allows learning for up to ${max} day(s); longer periods come with the ${lowestPlanWith((u) => u.learnDays >= cmd.days)} plan. Upgrade with ${spell(d, "subscribe")}, or start with ${spell(d, "learn")} ${max}.`));
          }
          await k.save({ ...s, learn: startLearn(run.now, cmd.days) });
          return run.say(
            heading("👀 Learning mode"),
            text(`For ${cmd.days} day(s) I watch without acting: I count the domains this group shares routinely and how often the "${s.policy}" policy would have acted. Only counts are kept.`),
            note(`${spell(d, "learn")} status shows the baseline so far; ${spell(d, "learn")} stop ends it early.`),
          );
        }
        if (s.learn === null) return run.say(text(`Learning mode is off. Start it with ${spell(d, "learn")} [days].`));
        if (cmd.action === "stop") {
          await finish(s, run.now, run);
          return;
        }
        return run.respond(await baseline(s, run.now, false));
      },
    },
  };
}
