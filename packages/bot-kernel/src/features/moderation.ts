import { hostOf, parseEntity } from "@svc/core";
import { checkMember, prepareAdmins } from "../impersonation.js";
import { bestEffort, type Assessment, type IncomingMessage } from "../monitoring.js";
import { commandSyntax, spell } from "../commands.js";
import type { Decision } from "../policy.js";
import type { MemberDirectory, StatsStore } from "../ports.js";
import { heading, list, note, text, type Block } from "../reply.js";
import { DEFAULT_POLICY, LIMITS, type ChatSettings } from "../settings.js";
import { lowestPlanWith, unlocksFor } from "./plans.js";
import { describeUser, type CommandContext, type CommandRun, type FeatureModule, type KernelServices } from "./feature.js";
import { resolveTarget, resolveUserEntry } from "./targets.js";

export interface ModerationPorts {
  readonly stats: StatsStore;
  readonly members: MemberDirectory;
}

/** Counts the message and its entities, screens them and decides, acting on nothing. */
export async function assessMessage(k: KernelServices, stats: StatsStore, msg: IncomingMessage, s: ChatSettings): Promise<{ readonly assessment: Assessment; readonly decision: Decision }> {
  await stats.add(msg.ref.chatId, "messages_scanned");
  const assessment = await k.monitor.assess(msg.text, s);
  if (assessment.assessed.length > 0) await stats.add(msg.ref.chatId, "entities_checked", assessment.assessed.length);
  return { assessment, decision: await k.monitor.decideFor(msg, s, assessment) };
}

/**
 * Group monitoring and its controls: scanning each message under the chat's policy (notify,
 * delete, ban) with the reason and the appeal path, monitoring switched on when the bot is
 * made admin, block- and allowlists, and `/banuser`.
 */
export function moderationFeature(k: KernelServices, p: ModerationPorts): FeatureModule {
  const d = k.dialect;
  const upgradeHint = `Upgrade with ${spell(d, "subscribe")}, or bind an svc account's key with ${spell(d, "connect")}.`;
  const isAdmin = async (ctx: CommandContext): Promise<boolean> => ctx.senderIsAdmin === true || (await k.isAdmin(ctx.chatId, ctx.sender.id));
  return {
    name: "moderation",
    actions: {
      allow: async (ctx, host) => {
        if (!(await isAdmin(ctx))) return "Only the group's admins can approve a domain.";
        const s = await k.settingsFor(ctx.chatId);
        if (s.allowlist.domains.includes(host)) return `${host} is already approved.`;
        if (s.allowlist.domains.length >= LIMITS.allowlistEntries) return `The allowlist is full (${LIMITS.allowlistEntries} entries).`;
        await k.save({ ...s, allowlist: { ...s.allowlist, domains: [...s.allowlist.domains, host] } });
        await k.log(s, { action: `allowlisted domain ${host} (button)`, policy: s.policy, chatId: ctx.chatId, user: ctx.sender });
        return `Approved ${host} and its subdomains.`;
      },
      unban: async (ctx, userId) => {
        if (!(await isAdmin(ctx))) return "Only the group's admins can undo a ban.";
        if (!k.chat.unban || !(await k.chat.unban(ctx.chatId, userId))) return "I could not lift the ban (I need the right to ban users).";
        const s = await k.settingsFor(ctx.chatId);
        await k.log(s, { action: "ban undone by admin", policy: s.policy, chatId: ctx.chatId, user: null, detail: `User id ${userId}; by ${describeUser(ctx.sender)}` });
        return "Ban lifted: they can rejoin the group.";
      },
    },
    async onMessage(msg, s) {
      if (!s.monitoring) return null;
      const { assessment, decision } = await assessMessage(k, p.stats, msg, s);
      if (decision.action === "none") return { entities: assessment.assessed.length, decision, performed: [] };
      const performed = await k.monitor.act(msg, s, decision);
      return { entities: assessment.assessed.length, decision, performed };
    },
    async onBotMembership(chatId, rights, s) {
      const was = rights.was;
      if (was) {
        // A right taken away would otherwise fail silently at the next scam: say so, once, per change.
        const lost: string[] = [];
        if (was.isAdmin && !rights.isAdmin) lost.push("admin status: I can only warn now, and cannot mute raiders");
        else {
          if (was.canDelete && !rights.canDelete) lost.push("Delete messages: risky messages are only warned about now");
          if (was.canRestrict && !rights.canRestrict) lost.push("Ban users: no bans, no /banuser and no anti-raid mutes now");
        }
        if (lost.length > 0) {
          const alert = { blocks: [heading("⚠️ I lost admin rights in this group"), list(lost), text("An admin can give them back in the group's administrator settings.")] };
          await bestEffort(k.chat.send(chatId, alert));
          await k.alertAdmins(s, alert);
          await k.log(s, { action: "bot rights lost", policy: s.policy, chatId, user: null, detail: lost.join("; ") });
        }
      }
      if (!rights.isAdmin) return;
      const wasOn = s.monitoring;
      const saved = await k.save({ ...s, monitoring: true });
      if (wasOn) return;
      const missing: string[] = [];
      if (!rights.canDelete) missing.push("Delete messages (without it I can only warn)");
      if (!rights.canRestrict) missing.push("Ban users (needed for the ban policy, /banuser and anti-raid)");
      const blocks: Block[] = [
        heading(`🛡 ${k.botName} is now protecting this group`),
        text(`Monitoring is on with the "${saved.policy}" policy: links, wallets, e-mails and phone numbers in messages are checked, and risky ones are handled with the reason and an appeal path. Message text is never stored.`),
        text(`Admins: ${spell(d, "policy")} notify|delete|ban, ${spell(d, "learn")} 7 to observe first, ${spell(d, "settings")} to see everything.`),
      ];
      if (missing.length > 0) blocks.push(text("Please also give me these admin rights:"), list(missing));
      await k.chat.send(chatId, { blocks });
    },
    commands: {
      protect: async (run) => {
        const s = run.settings;
        const antiRaid = k.offers("antiraid");
        // A platform that cannot delete gets the policy it can carry out.
        const saved = await k.save({ ...s, monitoring: true, policy: k.capabilities.delete ? DEFAULT_POLICY : "notify", antiRaid: { ...s.antiRaid, enabled: antiRaid || s.antiRaid.enabled } });
        await k.log(saved, { action: "protection on", policy: saved.policy, chatId: run.ctx.chatId, user: run.ctx.sender });
        if (!antiRaid) return run.say(heading("🛡 Protection on"), text(`Monitoring with the "${saved.policy}" policy.`), note(`Change it with ${spell(d, "policy")}.`));
        return run.say(heading("🛡 Protection on"), text(`Monitoring with the "${saved.policy}" policy, anti-raid at ${saved.antiRaid.joins} joins in ${saved.antiRaid.minutes} minute(s).`), note(`Change it with ${spell(d, "policy")} or ${spell(d, "antiraid")}.`));
      },
      monitor: (run) => setMonitoring(run.settings, true, run),
      unmonitor: (run) => setMonitoring(run.settings, false, run),
      policy: async (run, cmd) => {
        if ((cmd.policy === "delete" && !k.capabilities.delete) || (cmd.policy === "ban" && !k.capabilities.ban)) {
          return run.say(text(`On this platform I can only use the notify policy: the platform does not let bots ${cmd.policy === "ban" ? "ban members" : "delete messages"}.`));
        }
        if (cmd.level) {
          if (!unlocksFor(run.settings, run.now).unlocks.policyPerLevel) {
            return run.say(text(`A policy per risk level comes with the ${lowestPlanWith((u) => u.policyPerLevel)} plan. ${upgradeHint}`));
          }
          const how = { notify: "a warning", delete: "deletion with the reason", ban: "deletion and a ban of the sender, with the reason" }[cmd.policy];
          const byLevel = { ...run.settings.policyByLevel, [cmd.level]: cmd.policy };
          const saved = await k.save({ ...run.settings, policyByLevel: byLevel });
          await k.log(saved, { action: `policy for ${cmd.level} risk set to ${cmd.policy}`, policy: saved.policy, chatId: run.ctx.chatId, user: run.ctx.sender });
          const other = cmd.level === "high" ? "critical" : "high";
          return run.say(text(`Policy for ${cmd.level} risk set to ${cmd.policy}: ${cmd.level}-risk messages get ${how}. ${other === "high" ? "High" : "Critical"} risk: ${byLevel[other] ?? saved.policy}.`), note("Critical risk includes blocklist matches and links whose text shows another site."));
        }
        // A plain /policy sets everything: per-level policies are cleared.
        const saved = await k.save({ ...run.settings, policy: cmd.policy, policyByLevel: {} });
        await k.log(saved, { action: `policy set to ${cmd.policy}`, policy: cmd.policy, chatId: run.ctx.chatId, user: run.ctx.sender });
        const what = { notify: "I will warn under risky messages.", delete: "I will delete risky messages and say why.", ban: "I will delete risky messages, ban the sender and say why." }[cmd.policy];
        return run.say(text(`Policy set to ${cmd.policy}. ${what}`));
      },
      banuser: async (run, cmd) => {
        const { ctx, settings: s } = run;
        if (cmd.user === null && !ctx.replyToUser) return run.say(text(`Who? Usage: ${commandSyntax(d, "banuser")}, or reply to their message with ${spell(d, "banuser")}.`));
        const user = await resolveTarget(k.chat, p.members, ctx, cmd.user);
        if (!user) return run.say(text("I don't know that user. Reply to one of their messages with the command, or use their numeric id."));
        if (await k.isAdmin(ctx.chatId, user.id)) return run.say(text(`${describeUser(user)} is an admin; I won't ban admins.`));
        if (!k.capabilities.ban || !(await k.chat.ban(ctx.chatId, user.id))) {
          return run.say(text(`I could not ban ${describeUser(user)}. I need the admin right to ban users.`));
        }
        await p.stats.add(ctx.chatId, "bans");
        const f = checkMember(user, prepareAdmins(await k.chat.listAdmins(ctx.chatId)));
        await k.log(s, { action: "banned by admin", policy: s.policy, chatId: ctx.chatId, user, detail: `By: ${describeUser(ctx.sender)}${f ? `; ${f.reason}` : ""}` });
        return run.say(text(`🚫 ${describeUser(user)} is banned.`));
      },
      blocklist: async (run, cmd) => {
        const s = run.settings;
        if (cmd.action === "list") {
          return run.say(...(s.blocklist.length ? [text("Blocklist patterns:"), list(s.blocklist)] : [text(`The blocklist is empty. Add with ${commandSyntax(d, "blocklist")}.`)]));
        }
        if (cmd.action === "clear") {
          await k.save({ ...s, blocklist: [] });
          return run.say(text("Blocklist cleared."));
        }
        if (cmd.action === "add") {
          if (s.blocklist.includes(cmd.pattern)) return run.say(text(`"${cmd.pattern}" is already on the blocklist.`));
          const max = Math.min(LIMITS.blocklistPatterns, unlocksFor(s, run.now).unlocks.blocklistPatterns);
          if (s.blocklist.length >= max) {
            const more = max < LIMITS.blocklistPatterns ? ` The ${lowestPlanWith((u) => u.blocklistPatterns > max)} plan allows ${LIMITS.blocklistPatterns}. ${upgradeHint}` : "";
            return run.say(text(`The blocklist is full (${max} patterns). Remove some first.${more}`));
          }
          await k.save({ ...s, blocklist: [...s.blocklist, cmd.pattern] });
          return run.say(text(`Added "${cmd.pattern}". Links, domains, wallets and e-mails matching it are treated as scams.`));
        }
        if (!s.blocklist.includes(cmd.pattern)) return run.say(text(`"${cmd.pattern}" is not on the blocklist.`));
        await k.save({ ...s, blocklist: s.blocklist.filter((x) => x !== cmd.pattern) });
        return run.say(text(`Removed "${cmd.pattern}".`));
      },
      allowlist: async (run, cmd) => {
        const { ctx, settings: s } = run;
        if (cmd.action === "list") {
          return run.say(
            text(`Approved domains: ${s.allowlist.domains.join(", ") || "none"}`),
            text(`Approved users: ${s.allowlist.users.join(", ") || "none"}`),
            note("Approved users' links are still checked (accounts get stolen); they are never banned automatically, and skip anti-impersonation alerts."),
          );
        }
        let entry: string;
        if (cmd.kind === "domain") {
          const e = parseEntity(cmd.value);
          const host = e.ok ? hostOf(e.entity) : null;
          if (!e.ok || host === null) return run.say(text(`"${cmd.value}" is not a domain. Usage: ${commandSyntax(d, "allowlist")}`));
          entry = host;
        } else {
          const target = await resolveUserEntry(p.members, ctx.chatId, cmd.value);
          if (target === null) return run.say(text(`"${cmd.value}" is not a username or user id.`));
          entry = target;
        }
        const key = cmd.kind === "domain" ? "domains" : "users";
        const current = s.allowlist[key];
        if (cmd.action === "remove") {
          if (!current.includes(entry)) return run.say(text(`${entry} is not on the allowlist.`));
          await k.save({ ...s, allowlist: { ...s.allowlist, [key]: current.filter((x) => x !== entry) } });
          return run.say(text(`Removed ${entry} from the allowlist.`));
        }
        if (current.includes(entry)) return run.say(text(`${entry} is already approved.`));
        const max = Math.min(LIMITS.allowlistEntries, unlocksFor(s, run.now).unlocks.allowlistEntries);
        if (current.length >= max) return run.say(text(`The allowlist is full (${max} entries).${max < LIMITS.allowlistEntries ? ` ${upgradeHint}` : ""}`));
        await k.save({ ...s, allowlist: { ...s.allowlist, [key]: [...current, entry] } });
        await k.log(s, { action: `allowlisted ${cmd.kind} ${entry}`, policy: s.policy, chatId: ctx.chatId, user: ctx.sender });
        return run.say(text(cmd.kind === "domain" ? `Approved ${entry} and its subdomains.` : `Approved ${entry}. Their links are still checked, but they are never banned automatically.`));
      },
    },
  };

  async function setMonitoring(s: ChatSettings, on: boolean, run: CommandRun): Promise<void> {
    const saved = await k.save({ ...s, monitoring: on });
    await k.log(saved, { action: on ? "monitoring on" : "monitoring off", policy: saved.policy, chatId: run.ctx.chatId, user: run.ctx.sender });
    return run.say(text(on ? `Monitoring is on (policy "${saved.policy}").` : "Monitoring is off. Commands still work."));
  }
}
