import { hashApiKey, isWellFormedApiKey } from "@svc/server-ports";
import { commandSyntax } from "../commands.js";
import { boundByApiKey, planFromPurchases } from "../plans.js";
import type { Payment, PlanGrant, PlanResolver, PlanTier } from "../ports.js";
import { text, type Block } from "../reply.js";
import { defaultSettings, effectivePlan, planAtLeast, type ChatSettings } from "../settings.js";
import type { CommandName } from "../commands.js";
import type { FeatureModule, KernelServices } from "./feature.js";

export interface PlansPorts {
  readonly plans: PlanResolver;
}

/** Commands every chat may use whatever its plan (the way to a plan, and help). */
export const ALWAYS_AVAILABLE: ReadonlySet<CommandName> = new Set<CommandName>(["start", "connect", "support", "subscribe", "refund", "status"]);

/**
 * What each plan unlocks in a chat, on platforms where every plan may use the bot (Telegram):
 * the free plan protects a group fully; paid plans add room and finer control. On platforms
 * with a minimum plan (Discord, WhatsApp: starter; Slack: pro) the bot needs that plan first.
 */
export interface PlanUnlocks {
  readonly blocklistPatterns: number;
  readonly allowlistEntries: number;
  /** Longest learning period, in days. */
  readonly learnDays: number;
  /** `/policy <action> <level>`: a policy per risk level. */
  readonly policyPerLevel: boolean;
}

export const PLAN_UNLOCKS: Readonly<Record<PlanTier, PlanUnlocks>> = {
  free: { blocklistPatterns: 25, allowlistEntries: 100, learnDays: 7, policyPerLevel: false },
  starter: { blocklistPatterns: 100, allowlistEntries: 500, learnDays: 14, policyPerLevel: true },
  pro: { blocklistPatterns: 100, allowlistEntries: 500, learnDays: 30, policyPerLevel: true },
};

/** The plan in force for a chat and what it unlocks. */
export function unlocksFor(s: ChatSettings, now: Date): { readonly plan: PlanTier; readonly unlocks: PlanUnlocks } {
  const plan = effectivePlan(s, now);
  return { plan, unlocks: PLAN_UNLOCKS[plan] };
}

/** The lowest plan that unlocks what `ok` asks for. */
export function lowestPlanWith(ok: (u: PlanUnlocks) => boolean): PlanTier {
  return (["free", "starter", "pro"] as const).find((t) => ok(PLAN_UNLOCKS[t])) ?? "pro";
}

/** Whether a chat's plan in force reaches the platform's minimum (no minimum: always). */
export function planAllows(s: ChatSettings, now: Date, minimum: PlanTier | undefined): boolean {
  return minimum === undefined || planAtLeast(effectivePlan(s, now), minimum);
}

/**
 * Plans: `/connect <api key>` binds an svc account's plan (the key's hash is kept, the message
 * with the key deleted); in-app purchases are entitlements per purchase (`planFromPurchases`)
 * and never replace an API-key plan.
 */
export function plansFeature(k: KernelServices, p: PlansPorts): FeatureModule {
  return {
    name: "plans",
    commands: {
      connect: async (run, cmd) => {
        const { ctx, settings: s } = run;
        const key = cmd.apiKey;
        // The key was posted where others can read it: take it down first, whatever happens next.
        const exposed = ctx.chatKind !== "private" && ctx.argumentsPrivate !== true;
        const removed = ctx.message && exposed ? await k.chat.deleteMessage(ctx.message) : false;
        const hygiene = removed ? "I deleted your message because it contained the key." : exposed ? "Please delete your message: it contains the key." : "";
        const send = (...blocks: Block[]): Promise<void> => (removed ? k.chat.send(ctx.chatId, { blocks }) : run.respond({ blocks }));
        if (!isWellFormedApiKey(key)) {
          return send(text(`That is not a valid API key (they start with svc_live_ and are 47 characters long; a typo breaks the checksum). ${hygiene}`.trim()), text(`Usage: ${commandSyntax(k.dialect, "connect")}`));
        }
        const plan = await p.plans.planForKey(key);
        if (plan === null) {
          // The usual cause: a key made by an svc server whose database this bot does not share.
          return send(text(`That key is not active (unknown or revoked). It must be a key from the svc server this bot uses (the bot and the API share one database). ${hygiene}`.trim()));
        }
        await k.save({ ...s, plan: { tier: plan, source: "api_key", keyHash: hashApiKey(key), boundBy: ctx.sender.id, until: null } });
        await k.log(s, { action: `plan bound: ${plan}`, policy: s.policy, chatId: ctx.chatId, user: ctx.sender });
        return send(text(`This chat now uses the ${plan} plan, bound by ${ctx.sender.name}. ${hygiene}`.trim()));
      },
    },
  };
}

/**
 * A purchase as a settings change, for `PaymentLedger.record` to apply in the transaction that
 * records the payment: `tier` for `days` days from now, or from the end of a running purchase
 * of the same tier. An API-key plan is left as it is.
 */
export function purchaseGrant(k: Pick<KernelServices, "platform">, chatId: string, now: Date, tier: Exclude<PlanTier, "free">, days: number, by: string): PlanGrant {
  return (current) => {
    const s = current ?? defaultSettings(chatId, k.platform, now);
    // The payment is recorded either way (it can be refunded), but an API-key plan stands.
    if (boundByApiKey(s.plan)) return s;
    const runningUntil = s.plan.source === "stars" && s.plan.tier === tier && s.plan.until !== null ? Date.parse(s.plan.until) : Number.NaN;
    const from = runningUntil > now.getTime() ? runningUntil : now.getTime();
    return { ...s, plan: { tier, source: "stars", boundBy: by, until: new Date(from + days * 86_400_000).toISOString() }, updatedAt: now.toISOString() };
  };
}

/** The chat's purchased plan worked out again from the purchases that still stand. */
export async function purchasesChanged(k: KernelServices, chatId: string, payments: readonly Payment[], days: number): Promise<ChatSettings> {
  const s = await k.settingsFor(chatId);
  if (boundByApiKey(s.plan)) return s;
  const plan = planFromPurchases(payments, k.clock.now(), days);
  const saved = await k.save({ ...s, plan });
  await k.log(s, { action: `purchase refunded; plan now ${plan.tier}${plan.until ? ` until ${plan.until.slice(0, 10)}` : ""}`, policy: s.policy, chatId, user: null });
  return saved;
}
