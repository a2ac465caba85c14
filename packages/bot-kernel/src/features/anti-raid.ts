import { JoinWindows, LockdownMutes, raidTriggered } from "../anti-raid.js";
import { spell } from "../commands.js";
import type { StatsStore } from "../ports.js";
import { heading, note, text, type Reply } from "../reply.js";
import type { ChatSettings } from "../settings.js";
import type { FeatureModule, KernelServices } from "./feature.js";

export interface AntiRaidPorts {
  readonly stats: StatsStore;
}

/**
 * Anti-raid: N joins within M minutes start a lockdown that mutes the newcomers until it
 * lifts itself (or `/antiraid off`), unmuting everyone it muted. A raid is reported once when
 * it starts and once when it ends, never per raider.
 */
export function antiRaidFeature(k: KernelServices, p: AntiRaidPorts): FeatureModule {
  const joins = new JoinWindows();
  const mutes = new LockdownMutes();

  /** Unmutes everyone the lockdown muted (where the platform can): who was muted, how many unmuted. */
  async function liftMutes(chatId: string): Promise<{ readonly muted: number; readonly ids: readonly string[]; readonly unmuted: number }> {
    const ids = mutes.take(chatId);
    const unrestrict = k.chat.unrestrict?.bind(k.chat);
    let unmuted = 0;
    if (unrestrict) for (const id of ids) if (await unrestrict(chatId, id).catch(() => false)) unmuted++;
    return { muted: ids.length, ids, unmuted };
  }

  return {
    name: "anti-raid",
    async expire(s, now) {
      if (s.lockdownUntil === null || Date.parse(s.lockdownUntil) > now.getTime()) return s;
      const cur = await k.save({ ...s, lockdownUntil: null });
      joins.clear(cur.chatId);
      const lifted = await liftMutes(cur.chatId);
      await k.chat.send(cur.chatId, { blocks: [heading("✅ Raid lockdown lifted"), text(`New members can talk again.${lifted.muted > 0 ? ` ${lifted.muted} newcomer(s) were muted during the lockdown.` : ""}`)] });
      await k.log(cur, {
        action: "lockdown lifted (automatic)",
        policy: cur.policy,
        chatId: cur.chatId,
        user: null,
        detail: `Muted during the lockdown: ${lifted.muted} (ids ${lifted.ids.slice(0, 50).join(", ") || "none"}${lifted.ids.length > 50 ? ", …" : ""}); unmuted now: ${lifted.unmuted}`,
      });
      return cur;
    },
    async onJoin(e, s, state) {
      if (!s.antiRaid.enabled) return;
      const now = k.clock.now();
      if (s.lockdownUntil !== null) {
        if (await k.chat.restrict(e.chatId, e.user.id, new Date(s.lockdownUntil))) {
          mutes.add(e.chatId, e.user.id);
          await p.stats.add(e.chatId, "restrictions");
        }
        // No post per muted joiner (a raid would flood the log): the lift summarises them all.
        return "stop";
      }
      const window = joins.record(e.chatId, { at: now.getTime(), userId: e.user.id }, s.antiRaid);
      // Joins bunching up inside the window may be a raid building up: later modules hold back.
      state.bunched = window.length > 1;
      if (!raidTriggered(window, s.antiRaid)) return;
      const until = new Date(now.getTime() + s.antiRaid.lockdownMinutes * 60_000);
      const saved = await k.save({ ...s, lockdownUntil: until.toISOString() });
      await p.stats.add(e.chatId, "lockdowns");
      let muted = 0;
      for (const id of new Set(window.map((j) => j.userId))) {
        if (await k.chat.restrict(e.chatId, id, until)) {
          mutes.add(e.chatId, id);
          muted++;
        }
      }
      await p.stats.add(e.chatId, "restrictions", muted);
      const alert: Reply = {
        blocks: [
          heading("🚨 Raid detected: lockdown on"),
          text(`${window.length} people joined within ${s.antiRaid.minutes} minute(s) (threshold ${s.antiRaid.joins}). New members are muted until ${until.toISOString().slice(11, 16)} UTC; the lockdown lifts itself then.`),
          text(`Muted so far: ${muted}. Admins: check the newcomers, and use ${spell(k.dialect, "banuser")} on raiders.`),
        ],
      };
      await k.chat.send(e.chatId, alert);
      await k.alertAdmins(saved, alert);
      await k.log(saved, { action: "lockdown started", policy: saved.policy, chatId: e.chatId, user: null, detail: `Joins: ${window.length} in ${s.antiRaid.minutes} min; lifts ${until.toISOString()}; muted ${muted}` });
      return "stop";
    },
    commands: {
      antiraid: async (run, cmd) => {
        const s = run.settings;
        const antiRaid =
          cmd.action === "set"
            ? { enabled: true, joins: cmd.joins, minutes: cmd.minutes, lockdownMinutes: cmd.lockdownMinutes ?? s.antiRaid.lockdownMinutes }
            : { ...s.antiRaid, enabled: cmd.action === "on" };
        const saved = await k.save({ ...s, antiRaid, ...(cmd.action === "off" ? { lockdownUntil: null } : {}) });
        if (cmd.action === "off") {
          joins.clear(run.ctx.chatId);
          if (s.lockdownUntil !== null) await liftMutes(run.ctx.chatId);
        }
        const a = saved.antiRaid;
        return run.say(text(a.enabled ? `Anti-raid on: ${a.joins} joins within ${a.minutes} minute(s) start a ${a.lockdownMinutes}-minute lockdown.` : "Anti-raid off."));
      },
    },
  };
}

/** Welcome messages for newcomers: one per anti-raid window while joins bunch up, none in a lockdown. */
export function welcomeFeature(k: KernelServices): FeatureModule {
  return {
    name: "welcome",
    async onJoin(e, s: ChatSettings, state) {
      if (s.welcome.mode === "off" || state.bunched) return;
      const custom = s.welcome.mode === "custom" ? s.welcome.text.replaceAll("{name}", e.user.name) : null;
      await k.chat.send(e.chatId, {
        blocks: custom
          ? [text(custom)]
          : [text(`Welcome, ${e.user.name}! Links, wallets and contacts posted here are checked for scams.`), note("Admins will never message you first or ask for codes, seed phrases or payments.")],
      });
    },
    commands: {
      welcome: async (run, cmd) => {
        const welcome = cmd.mode === "set" ? { mode: "custom" as const, text: cmd.text } : { mode: cmd.mode };
        await k.save({ ...run.settings, welcome });
        return run.say(text(cmd.mode === "set" ? "Custom welcome message saved ({name} is replaced by the newcomer's name)." : `Welcome messages ${cmd.mode}.`));
      },
    },
  };
}
