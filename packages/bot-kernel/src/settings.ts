import type { PlanTier } from "./ports.js";

export const POLICIES = ["notify", "delete", "ban"] as const;
export type Policy = (typeof POLICIES)[number];

export type AlertDestination =
  | { readonly kind: "here" }
  /** A direct message to the admin who chose "me". */
  | { readonly kind: "me"; readonly userId: string }
  | { readonly kind: "chat"; readonly chatId: string };

export interface AntiRaidSettings {
  readonly enabled: boolean;
  readonly joins: number;
  readonly minutes: number;
  /** How long a lockdown lasts before it lifts itself. */
  readonly lockdownMinutes: number;
}

export type WelcomeSettings = { readonly mode: "on" | "off" } | { readonly mode: "custom"; readonly text: string };

export interface PlanBinding {
  readonly tier: PlanTier;
  readonly source: "none" | "api_key" | "stars";
  /** SHA-256 of the API key that bound the plan; the key itself is never stored. */
  readonly keyHash?: string;
  readonly boundBy?: string;
  /** ISO time the plan lapses (Stars purchases are monthly); null = while the key is valid. */
  readonly until: string | null;
}

/** Observe-only mode: counts, never content. */
export interface LearnState {
  readonly startedAt: string;
  readonly until: string;
  readonly messages: number;
  readonly messagesWithEntities: number;
  /** Messages the current policy would have acted on. */
  readonly wouldAct: number;
  /** Registrable domain → times shared (bounded; see MAX_LEARN_DOMAINS). */
  readonly domains: Readonly<Record<string, number>>;
}

/** The risk levels a policy can be set for: high verdicts, and critical ones (blocklist hits and deceptive links count as critical). */
export type PolicyLevel = "high" | "critical";

export interface ChatSettings {
  readonly chatId: string;
  readonly platform: string;
  readonly monitoring: boolean;
  readonly policy: Policy;
  /** A policy per risk level (`/policy delete high`), over `policy`; absent levels use `policy`. */
  readonly policyByLevel?: Readonly<Partial<Record<PolicyLevel, Policy>>>;
  readonly alerts: AlertDestination;
  readonly antiRaid: AntiRaidSettings;
  /** ISO time an active lockdown lifts; null when none is active. */
  readonly lockdownUntil: string | null;
  readonly welcome: WelcomeSettings;
  /** Safe glob patterns (`*`, `?`), lower-case. */
  readonly blocklist: readonly string[];
  readonly allowlist: { readonly users: readonly string[]; readonly domains: readonly string[] };
  readonly logChannel: string | null;
  readonly plan: PlanBinding;
  readonly learn: LearnState | null;
  readonly updatedAt: string;
}

/**
 * Per-chat settings; a database adapter implements it. The kernel keeps a copy of a chat's
 * settings for scanning messages only when the store can say cheaply whether they changed
 * (`version`); commands and timers always read the store.
 */
export interface SettingsStore {
  get(chatId: string): Promise<ChatSettings | null>;
  save(settings: ChatSettings): Promise<void>;
  /** Chats with a lockdown or a learning period that ends at or before `now`. */
  due(now: Date): Promise<readonly ChatSettings[]>;
  /**
   * Optional: a number that changes whenever the chat's stored settings change, by any writer
   * in any process (0 when the chat has none). With it the kernel caches settings between
   * messages (`StoreBuffers`) and asks for the version instead of the settings.
   */
  version?(chatId: string): Promise<number>;
}

export const LIMITS = {
  blocklistPatterns: 100,
  patternLength: 128,
  allowlistEntries: 500,
  welcomeLength: 1000,
  learnDomains: 1000,
  learnMaxDays: 30,
  antiRaidMaxJoins: 1000,
  antiRaidMaxMinutes: 1440,
  supportLength: 2000,
} as const;

export const DEFAULT_POLICY: Policy = "delete";

export function defaultSettings(chatId: string, platform: string, now: Date): ChatSettings {
  return {
    chatId,
    platform,
    monitoring: false,
    policy: DEFAULT_POLICY,
    alerts: { kind: "here" },
    // Rose-style default: 10 joins in a minute is a raid in almost any group; 30 minutes calms it.
    antiRaid: { enabled: true, joins: 10, minutes: 1, lockdownMinutes: 30 },
    lockdownUntil: null,
    welcome: { mode: "off" },
    blocklist: [],
    allowlist: { users: [], domains: [] },
    logChannel: null,
    plan: { tier: "free", source: "none", until: null },
    learn: null,
    updatedAt: now.toISOString(),
  };
}

/** The plan in force now: a lapsed Stars month falls back to free. */
export function effectivePlan(s: ChatSettings, now: Date): PlanTier {
  if (s.plan.until !== null && Date.parse(s.plan.until) <= now.getTime()) return "free";
  return s.plan.tier;
}

const PLAN_RANK: Readonly<Record<PlanTier, number>> = { free: 0, starter: 1, pro: 2 };
export const planAtLeast = (have: PlanTier, need: PlanTier): boolean => PLAN_RANK[have] >= PLAN_RANK[need];
