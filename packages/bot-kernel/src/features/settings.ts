import { ADMIN_COMMANDS, commandPurpose, commandSyntax, spell, type CommandName } from "../commands.js";
import type { StatsStore } from "../ports.js";
import { heading, list, note, text, type Block, type Reply } from "../reply.js";
import { effectivePlan } from "../settings.js";
import type { FeatureModule, KernelServices } from "./feature.js";
import { PLAN_UNLOCKS, type PlanUnlocks } from "./plans.js";

export interface SettingsPorts {
  readonly stats: StatsStore;
  /** Messages being scanned plus screenings waiting, for /status. */
  readonly queueDepth: () => number;
  /** Extra buttons for /start (e.g. the add-to-group link). */
  readonly startButtons?: Reply["buttons"];
}

const unlockLine = (u: PlanUnlocks): string =>
  `${u.blocklistPatterns} blocklist patterns, ${u.allowlistEntries} allowlist entries, learning up to ${u.learnDays} days, ${u.policyPerLevel ? "policy per risk level" : "one policy for all risk levels"}`;

const LISTED: readonly CommandName[] = ["check", "report", "status", "subscribe", "support", "protect", "monitor", "unmonitor", "policy", "alerts", "antiraid", "welcome", "learn", "connect", "audit", "verify", "banuser", "blocklist", "allowlist", "setlog", "settings"];

/** What a chat is set to and how it is doing: `/start`, `/status`, `/settings`, `/alerts`, `/setlog`. */
export function settingsFeature(k: KernelServices, p: SettingsPorts): FeatureModule {
  return {
    name: "settings",
    commands: {
      start: async (run) => {
        const d = k.dialect;
        const blocks: Block[] = [
          heading(`${k.botName}: scam checks for groups`),
          text("Add me to a group and make me an admin: monitoring starts by itself. I check links, domains, wallets, e-mails and phone numbers, act on risky ones by the group's policy, and always say why and how to appeal. Message text is never stored."),
        ];
        if (run.ctx.chatKind === "private") blocks.push(text("Here in private, send or forward me anything suspicious and I reply with a verdict for each link, wallet or contact in it."));
        blocks.push(
          text("Everyone:"),
          list(LISTED.filter((n) => !ADMIN_COMMANDS.has(n) && k.offers(n)).map((n) => `${commandSyntax(d, n)}: ${commandPurpose(n)}`)),
          text("Group admins:"),
          list(LISTED.filter((n) => ADMIN_COMMANDS.has(n) && k.offers(n)).map((n) => `${commandSyntax(d, n)}: ${commandPurpose(n)}`)),
          note("I never ask for login codes, seed phrases, wallet connections or payments in private. Automated risk indicators, not legal, financial or investment advice."),
        );
        return run.respond(p.startButtons ? { blocks, buttons: p.startButtons } : { blocks });
      },
      status: async (run) => {
        const s = run.settings;
        const st = await p.stats.get(run.ctx.chatId);
        const lines = [
          `Monitoring: ${s.monitoring ? `on (policy ${s.policy})` : "off"}`,
          ...(s.learn ? [`Learning until ${s.learn.until.slice(0, 16).replace("T", " ")} UTC (observing, not acting)`] : []),
          ...(s.lockdownUntil ? [`Raid lockdown until ${s.lockdownUntil.slice(11, 16)} UTC`] : []),
          `Messages scanned: ${st.messages_scanned}`,
          `Entities checked: ${st.entities_checked}`,
          `Actions taken: ${st.warnings} warnings, ${st.deletions} deletions, ${st.bans} bans, ${st.restrictions} mutes`,
          `Reports filed: ${st.reports}`,
          `Queue depth: ${p.queueDepth()}`,
        ];
        return run.say(heading("📈 Status"), list(lines));
      },
      settings: async (run) => {
        const s = run.settings;
        const alerts = s.alerts.kind === "here" ? "here" : s.alerts.kind === "me" ? `direct message to user ${s.alerts.userId}` : `chat ${s.alerts.chatId}`;
        const plan = effectivePlan(s, run.now);
        const lines = [
          `Monitoring: ${s.monitoring ? "on" : "off"}`,
          `Policy: ${s.policy}${s.policyByLevel && Object.keys(s.policyByLevel).length > 0 ? ` (${(["high", "critical"] as const).map((l) => `${l}: ${s.policyByLevel?.[l] ?? s.policy}`).join(", ")})` : ""}`,
          `Alerts: ${alerts}`,
          ...(k.offers("antiraid") ? [`Anti-raid: ${s.antiRaid.enabled ? `${s.antiRaid.joins} joins / ${s.antiRaid.minutes} min → ${s.antiRaid.lockdownMinutes} min lockdown` : "off"}`] : []),
          ...(k.offers("welcome") ? [`Welcome: ${s.welcome.mode === "custom" ? `custom ("${s.welcome.text.slice(0, 60)}${s.welcome.text.length > 60 ? "…" : ""}")` : s.welcome.mode}`] : []),
          `Blocklist: ${s.blocklist.length ? s.blocklist.join(", ") : "empty"}`,
          `Allowed users: ${s.allowlist.users.length ? s.allowlist.users.join(", ") : "none"}`,
          `Allowed domains: ${s.allowlist.domains.length ? s.allowlist.domains.join(", ") : "none"}`,
          `Log channel: ${s.logChannel ?? "none"}`,
          `Plan: ${plan}${s.plan.source === "api_key" ? " (bound with an API key)" : s.plan.source === "stars" && s.plan.until ? ` (in-app purchase, until ${s.plan.until.slice(0, 10)})` : ""}`,
          `Learning: ${s.learn ? `until ${s.learn.until.slice(0, 10)}` : "off"}`,
          `Plan unlocks: ${unlockLine(PLAN_UNLOCKS[plan])}`,
        ];
        return run.say(heading("⚙️ Settings"), list(lines));
      },
      alerts: async (run, cmd) => {
        const { ctx } = run;
        // An anonymous admin posts as the group itself: "me" would send the alerts back here.
        if (cmd.destination.kind === "me" && ctx.sender.id === ctx.chatId) {
          return run.say(text(`You are posting anonymously, so I can't tell who "me" is. Post as yourself to get alerts in a direct message, or send them to a chat with ${spell(k.dialect, "alerts")} <chat id>.`));
        }
        // Checked as /setlog is: a chat the bot cannot post in would swallow every alert.
        if (cmd.destination.kind === "chat") {
          try {
            await k.chat.send(cmd.destination.chatId, { blocks: [text(`🔔 This chat now receives the svc alerts of chat ${ctx.chatId}.`)] });
          } catch {
            return run.say(text(`I can't post in ${cmd.destination.chatId}. Add me there first (as an admin in a channel), then try again.`));
          }
        }
        const dest = cmd.destination.kind === "me" ? { kind: "me" as const, userId: ctx.sender.id } : cmd.destination;
        await k.save({ ...run.settings, alerts: dest });
        const where = dest.kind === "here" ? "this chat" : dest.kind === "me" ? "you, in a direct message (start a chat with me first, or I cannot write to you)" : `chat ${dest.chatId}`;
        return run.say(text(`Alerts go to ${where}.`));
      },
      setlog: async (run, cmd) => {
        const channel = cmd.channel === "here" ? run.ctx.chatId : cmd.channel;
        if (channel !== null) {
          try {
            await k.chat.send(channel, { blocks: [text(`📋 This chat now receives the svc log of chat ${run.ctx.chatId}.`)] });
          } catch {
            return run.say(text(`I can't post in ${channel}. Add me there as an admin first, then try again.`));
          }
        }
        await k.save({ ...run.settings, logChannel: channel });
        return run.say(text(channel === null ? "Logging off." : `Actions are logged to ${channel}.`));
      },
      admin_add: (run) => run.say(text("Adding admins by command is only available on WhatsApp; here, group admins are the platform's own admins.")),
    },
  };
}
