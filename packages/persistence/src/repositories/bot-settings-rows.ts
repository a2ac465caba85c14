import type { ChatSettings, LearnState, Policy, PolicyLevel, PlanBinding, AlertDestination, AntiRaidSettings, WelcomeSettings } from "@svc/bot-kernel";
import type { EntityManager } from "typeorm";
import type { BotChatSettingsRow } from "../entities/bot.js";
import { iso, isoOrNull } from "./sql.js";

/**
 * ChatSettings ⇄ `bot_chat_settings`. Only the port's own fields are written, picked one by one
 * (never a spread of whatever object arrived), so nothing beyond the settings reaches the table.
 */
export function toSettings(r: BotChatSettingsRow): ChatSettings {
  const plan: PlanBinding = {
    tier: r.plan_tier as PlanBinding["tier"],
    source: r.plan_source as PlanBinding["source"],
    ...(r.plan_key_hash !== null ? { keyHash: r.plan_key_hash } : {}),
    ...(r.plan_bound_by !== null ? { boundBy: r.plan_bound_by } : {}),
    until: isoOrNull(r.plan_until),
  };
  return {
    chatId: r.chat_id,
    platform: r.platform,
    monitoring: r.monitoring,
    policy: r.policy as Policy,
    ...(policyLevels(r.policy_levels) ?? {}),
    alerts: r.alerts as AlertDestination,
    antiRaid: r.anti_raid as AntiRaidSettings,
    lockdownUntil: isoOrNull(r.lockdown_until),
    welcome: r.welcome as WelcomeSettings,
    blocklist: r.blocklist,
    allowlist: r.allowlist as ChatSettings["allowlist"],
    logChannel: r.log_channel,
    plan,
    learn: (r.learn ?? null) as LearnState | null,
    updatedAt: iso(r.updated_at),
  };
}

/** `{ policyByLevel }` when the row has per-level policies, else nothing (the field is optional). */
function policyLevels(v: unknown): { policyByLevel: ChatSettings["policyByLevel"] } | null {
  const o = (v ?? {}) as Record<string, unknown>;
  const out: Partial<Record<PolicyLevel, Policy>> = {};
  for (const l of ["high", "critical"] as const) if (typeof o[l] === "string") out[l] = o[l] as Policy;
  return Object.keys(out).length > 0 ? { policyByLevel: out } : null;
}

const levels = (p: ChatSettings["policyByLevel"]): Partial<Record<PolicyLevel, Policy>> => ({
  ...(p?.high ? { high: p.high } : {}),
  ...(p?.critical ? { critical: p.critical } : {}),
});

const alerts = (a: AlertDestination): AlertDestination =>
  a.kind === "me" ? { kind: "me", userId: a.userId } : a.kind === "chat" ? { kind: "chat", chatId: a.chatId } : { kind: "here" };

const antiRaid = (a: AntiRaidSettings): AntiRaidSettings => ({ enabled: a.enabled, joins: a.joins, minutes: a.minutes, lockdownMinutes: a.lockdownMinutes });

const welcome = (w: WelcomeSettings): WelcomeSettings => (w.mode === "custom" ? { mode: "custom", text: w.text } : { mode: w.mode });

const learn = (l: LearnState): LearnState => ({
  startedAt: l.startedAt,
  until: l.until,
  messages: l.messages,
  messagesWithEntities: l.messagesWithEntities,
  wouldAct: l.wouldAct,
  domains: { ...l.domains },
});

/** Inserts or replaces a chat's settings (one statement; inside a transaction pass its manager). */
export async function upsertSettings(m: EntityManager, s: ChatSettings): Promise<void> {
  await m.query(
    `INSERT INTO bot_chat_settings (platform, chat_id, monitoring, policy, alerts, anti_raid, lockdown_until, welcome, blocklist, allowlist,
                                    log_channel, plan_tier, plan_source, plan_key_hash, plan_bound_by, plan_until, learn, learn_until, updated_at, policy_levels)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::timestamptz, $8::jsonb, $9::jsonb, $10::jsonb,
             $11, $12, $13, $14, $15, $16::timestamptz, $17::jsonb, $18::timestamptz, $19::timestamptz, $20::jsonb)
     ON CONFLICT (platform, chat_id) DO UPDATE SET
       monitoring = EXCLUDED.monitoring, policy = EXCLUDED.policy, alerts = EXCLUDED.alerts, anti_raid = EXCLUDED.anti_raid,
       lockdown_until = EXCLUDED.lockdown_until, welcome = EXCLUDED.welcome, blocklist = EXCLUDED.blocklist,
       allowlist = EXCLUDED.allowlist, log_channel = EXCLUDED.log_channel, plan_tier = EXCLUDED.plan_tier,
       plan_source = EXCLUDED.plan_source, plan_key_hash = EXCLUDED.plan_key_hash, plan_bound_by = EXCLUDED.plan_bound_by,
       plan_until = EXCLUDED.plan_until, learn = EXCLUDED.learn, learn_until = EXCLUDED.learn_until, updated_at = EXCLUDED.updated_at,
       policy_levels = EXCLUDED.policy_levels`,
    [
      s.platform,
      s.chatId,
      s.monitoring,
      s.policy,
      JSON.stringify(alerts(s.alerts)),
      JSON.stringify(antiRaid(s.antiRaid)),
      s.lockdownUntil,
      JSON.stringify(welcome(s.welcome)),
      JSON.stringify([...s.blocklist]),
      JSON.stringify({ users: [...s.allowlist.users], domains: [...s.allowlist.domains] }),
      s.logChannel,
      s.plan.tier,
      s.plan.source,
      s.plan.keyHash ?? null,
      s.plan.boundBy ?? null,
      s.plan.until,
      s.learn === null ? null : JSON.stringify(learn(s.learn)),
      s.learn === null ? null : s.learn.until,
      s.updatedAt,
      JSON.stringify(levels(s.policyByLevel)),
    ],
  );
}

export async function selectSettings(m: EntityManager, platform: string, chatId: string, forUpdate = false): Promise<ChatSettings | null> {
  const [row] = (await m.query(
    `SELECT * FROM bot_chat_settings WHERE platform = $1 AND chat_id = $2${forUpdate ? " FOR UPDATE" : ""}`,
    [platform, chatId],
  )) as BotChatSettingsRow[];
  return row ? toSettings(row) : null;
}
