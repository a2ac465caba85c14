import type { ChatUser } from "../chat-port.js";
import { commandSyntax, spell } from "../commands.js";
import { auditMembers, checkMember, prepareAdmins } from "../impersonation.js";
import { isTrustedUser } from "../monitoring.js";
import type { MemberDirectory } from "../ports.js";
import { heading, list, note, text, type Block, type Reply } from "../reply.js";
import type { ChatSettings } from "../settings.js";
import { describeUser, type FeatureModule, type KernelServices } from "./feature.js";
import { resolveTarget } from "./targets.js";

export interface ImpersonationPorts {
  readonly members: MemberDirectory;
  /** Alerts fire at or above this score (0..1). */
  readonly alertScore?: number;
}

/** Impersonation audit: newcomers and renamed members who look like an admin, `/audit` and `/verify`. */
export function impersonationFeature(k: KernelServices, p: ImpersonationPorts): FeatureModule {
  const d = k.dialect;

  /** A newcomer or renamed member who looks like an admin: warn right away, before the DMs start. */
  async function check(s: ChatSettings, user: ChatUser, when: "join" | "message"): Promise<void> {
    if (!s.monitoring || isTrustedUser(user, s)) return;
    const admins = await k.chat.listAdmins(s.chatId);
    const f = checkMember(user, prepareAdmins(admins));
    if (!f || f.score < (p.alertScore ?? 0.8)) return;
    const alert: Reply = {
      blocks: [
        heading("⚠️ Possible admin impersonator"),
        text(`${user.name}${user.username ? ` (@${user.username})` : ""} ${f.reason}. Admins of this group will never DM you first.`),
        note(`Admins: ${spell(d, "verify")} ${user.id} · ${spell(d, "banuser")} ${user.id}`),
      ],
    };
    await k.chat.send(s.chatId, alert);
    await k.alertAdmins(s, alert);
    await k.log(s, { action: `impersonation alert (${when})`, policy: s.policy, chatId: s.chatId, user, detail: `Reason: ${f.reason} (score ${f.score.toFixed(2)})` });
  }

  return {
    name: "impersonation",
    onMember: (s, user, when) => check(s, user, when),
    async onJoin(e, s) {
      await check(s, e.user, "join");
    },
    commands: {
      audit: async (run) => {
        const { ctx, settings: s } = run;
        const admins = await k.chat.listAdmins(ctx.chatId);
        // The chat itself (the stand-in an anonymous admin posts as) is never a suspect.
        const members = (await p.members.list(ctx.chatId)).filter((m) => m.id !== ctx.chatId);
        const exempt = new Set(members.filter((m) => isTrustedUser(m, s)).map((m) => m.id));
        const findings = auditMembers(members, admins, exempt);
        const blocks: Block[] = [heading("🔎 Impersonation audit"), text(`Compared ${members.length} member(s) I have seen with ${admins.length} admin(s), by look-alike characters and spelling.`)];
        if (findings.length === 0) blocks.push(text("No member imitates an admin."));
        else {
          blocks.push(list(findings.slice(0, 15).map((f) => `${describeUser(f.member)} ${f.reason}`)));
          if (findings.length > 15) blocks.push(text(`…and ${findings.length - 15} more.`));
          blocks.push(note(`Ban with ${spell(d, "banuser")} <id>; check one with ${spell(d, "verify")} <id>.`));
        }
        blocks.push(note("Platforms do not let bots list every member: only members seen joining or writing are compared."));
        await k.log(s, { action: "impersonation audit", policy: s.policy, chatId: ctx.chatId, user: ctx.sender, detail: `Suspects: ${findings.map((f) => f.member.id).join(", ") || "none"}` });
        return run.say(...blocks);
      },
      verify: async (run, cmd) => {
        const { ctx } = run;
        if (cmd.user === null && !ctx.replyToUser) return run.say(text(`Who? Usage: ${commandSyntax(d, "verify")}, or reply to their message with ${spell(d, "verify")}.`));
        const user = await resolveTarget(k.chat, p.members, ctx, cmd.user);
        if (!user) return run.say(text("I don't know that user. Reply to one of their messages with the command, or use their numeric id."));
        const admins = await k.chat.listAdmins(ctx.chatId);
        if (admins.some((a) => a.id === user.id)) return run.say(text(`✅ ${describeUser(user)} is a real admin of this group.`));
        const f = checkMember(user, prepareAdmins(admins));
        return run.say(text(`❌ ${describeUser(user)} is NOT an admin of this group.`), ...(f ? [text(`⚠️ They ${f.reason}.`), note(`Ban with ${spell(d, "banuser")} ${user.id}.`)] : []));
      },
    },
  };
}
