import type { ChatPort, ChatUser } from "./chat-port.js";
import { ADMIN_COMMANDS, commandSyntax, parseCommand, spell, type Command, type CommandName, type Dialect, type ParseResult } from "./commands.js";
import { antiRaidFeature, welcomeFeature } from "./features/anti-raid.js";
import type { BotRights, CommandContext, CommandRun, FeatureModule, JoinEvent, JoinState, KernelServices, PrivateMessage } from "./features/feature.js";
import { impersonationFeature } from "./features/impersonation.js";
import { learnFeature } from "./features/learn.js";
import { moderationFeature } from "./features/moderation.js";
import { ALWAYS_AVAILABLE, planAllows, plansFeature, purchaseGrant, purchasesChanged } from "./features/plans.js";
import { reportsFeature } from "./features/reports.js";
import { scanFeature } from "./features/scan.js";
import { settingsFeature } from "./features/settings.js";
import { supportFeature } from "./features/support.js";
import { bestEffort, Monitor, type Capabilities, type IncomingMessage, type ScanOutcome } from "./monitoring.js";
import type { Decision } from "./policy.js";
import type { Clock, MemberDirectory, Payment, PlanGrant, PlanResolver, PlanTier, ReportSink, ScreeningPort, StatsStore, SupportDesk } from "./ports.js";
import { heading, text, type Block, type Reply } from "./reply.js";
import { defaultSettings, type ChatSettings, type SettingsStore } from "./settings.js";
import { StoreBuffers, type StoreBufferOptions } from "./store-buffers.js";
import { VerdictCache, type VerdictCacheOptions } from "./verdict-cache.js";

export type { BotRights, ChatKind, CommandContext, JoinEvent, PrivateMessage } from "./features/feature.js";

export interface KernelDeps {
  /** Platform name recorded with reports and tickets ("telegram"). */
  readonly platform: string;
  readonly dialect: Dialect;
  readonly chat: ChatPort;
  readonly screening: ScreeningPort;
  readonly settings: SettingsStore;
  readonly reports: ReportSink;
  readonly stats: StatsStore;
  readonly members: MemberDirectory;
  readonly support: SupportDesk;
  readonly plans: PlanResolver;
  readonly clock: Clock;
  readonly options?: KernelOptions;
}

/** What every platform hands the kernel besides its own chat port: stores, screening, clock. */
export type KernelStores = Omit<KernelDeps, "platform" | "dialect" | "chat" | "options">;

/** The kernel's stores out of a platform's wider dependencies (nothing else is passed on). */
export function kernelStores(d: KernelStores): KernelStores {
  return { screening: d.screening, settings: d.settings, reports: d.reports, stats: d.stats, members: d.members, support: d.support, plans: d.plans, clock: d.clock };
}

/** Builds one feature module from the shared services and the kernel's ports. */
export type FeatureFactory = (k: KernelServices, deps: KernelDeps & { readonly queueDepth: () => number }) => FeatureModule;

export interface KernelOptions {
  readonly botName?: string;
  /** Without @; commands addressed to another bot (`/check@other_bot`) are ignored. */
  readonly botUsername?: string;
  readonly capabilities?: Capabilities;
  /** Plans below this cannot use the bot beyond /start, /connect, /support (Discord, WhatsApp: starter; Slack: pro). */
  readonly minimumPlan?: PlanTier;
  readonly cache?: VerdictCacheOptions;
  /**
   * Write-behind of counters and members seen again, and the settings copy used for messages
   * (`StoreBuffers`; only for stores with the batch methods, i.e. the database ones).
   */
  readonly writeBehind?: StoreBufferOptions;
  /**
   * Distinct entities screened per message at most (default: all of them, bounded by the
   * message's length). Over the cap, the riskiest-looking are screened first (blocklisted,
   * deceptive link text, disguised spelling, known risky) and the extraction says truncated.
   */
  readonly maxEntitiesPerMessage?: number;
  /** Impersonation alerts fire at or above this score (0..1). */
  readonly impersonationAlertScore?: number;
  /** Extra lines for /start (e.g. the add-to-group link). */
  readonly startButtons?: Reply["buttons"];
  /**
   * The feature modules, in order (default `DEFAULT_FEATURES`): a platform drops what it cannot
   * offer or adds its own, as grammY composes `Composer`s. Order matters for events: the first
   * module that answers a message handles it, and join hooks run in turn.
   */
  readonly features?: readonly FeatureFactory[];
}

/**
 * Each feature module's factory by name, so a platform can leave one out of
 * `DEFAULT_FEATURES` (Slack and WhatsApp drop `antiRaid` and `welcome`: bots there hear of no joins).
 */
export const FEATURES = {
  settings: (k, d) => settingsFeature(k, { stats: d.stats, queueDepth: d.queueDepth, ...(d.options?.startButtons ? { startButtons: d.options.startButtons } : {}) }),
  scan: (k, d) => scanFeature(k, { stats: d.stats }),
  reports: (k, d) => reportsFeature(k, { reports: d.reports, stats: d.stats }),
  antiRaid: (k, d) => antiRaidFeature(k, { stats: d.stats }),
  impersonation: (k, d) => impersonationFeature(k, { members: d.members, ...(d.options?.impersonationAlertScore !== undefined ? { alertScore: d.options.impersonationAlertScore } : {}) }),
  welcome: (k) => welcomeFeature(k),
  learn: (k, d) => learnFeature(k, { stats: d.stats }),
  moderation: (k, d) => moderationFeature(k, { stats: d.stats, members: d.members }),
  plans: (k, d) => plansFeature(k, { plans: d.plans }),
  support: (k, d) => supportFeature(k, { support: d.support }),
} satisfies Record<string, FeatureFactory>;

/**
 * Every feature, in the order events reach them: anti-raid before the impersonation check and
 * the welcome (a lockdown stops both), learn before moderation (while learning, observe only).
 */
export const DEFAULT_FEATURES: readonly FeatureFactory[] = [
  FEATURES.settings,
  FEATURES.scan,
  FEATURES.reports,
  FEATURES.antiRaid,
  FEATURES.impersonation,
  FEATURES.welcome,
  FEATURES.learn,
  FEATURES.moderation,
  FEATURES.plans,
  FEATURES.support,
];

/** The default features without those a platform cannot offer, in the default order. */
export function featuresWithout(...left: readonly FeatureFactory[]): readonly FeatureFactory[] {
  return DEFAULT_FEATURES.filter((f) => !left.includes(f));
}

/** Commands that act on a group and make no sense in a direct message. */
const GROUP_ONLY: ReadonlySet<CommandName> = new Set<CommandName>([...ADMIN_COMMANDS, "status"]);

/**
 * The platform-neutral bot: a composition of feature modules (see `features/`). Apps translate
 * platform events into these calls and render the replies; everything the kernel remembers
 * goes through the ports (settings, stats, members), and no port is ever given a message's text.
 */
export class BotKernel {
  readonly cache: VerdictCache;
  /** The composed feature modules, in order. */
  readonly features: readonly FeatureModule[];
  /** Counters and members waiting to be written, and the settings copy for messages. */
  readonly buffers: StoreBuffers;
  private readonly monitor: Monitor;
  private readonly services: KernelServices;
  private readonly handlers = new Map<CommandName, (run: CommandRun, cmd: Command) => Promise<void>>();
  private scansInProgress = 0;

  constructor(private readonly deps: KernelDeps) {
    const o = deps.options ?? {};
    const capabilities = o.capabilities ?? { delete: true, ban: true, restrict: true };
    this.cache = new VerdictCache(deps.screening, deps.clock, o.cache);
    this.buffers = new StoreBuffers({ stats: deps.stats, members: deps.members, settings: deps.settings }, o.writeBehind);
    this.monitor = new Monitor({
      chat: deps.chat,
      cache: this.cache,
      stats: this.buffers.stats,
      clock: deps.clock,
      capabilities,
      maxEntities: o.maxEntitiesPerMessage ?? Number.POSITIVE_INFINITY,
      appealCommand: (entity) => `${spell(deps.dialect, "report")} ${entity} false_positive`,
      isAdmin: (chatId, userId) => this.isAdmin(chatId, userId),
    });
    this.services = {
      platform: deps.platform,
      dialect: deps.dialect,
      clock: deps.clock,
      chat: deps.chat,
      capabilities,
      monitor: this.monitor,
      cache: this.cache,
      botName: o.botName ?? "svc",
      settingsFor: (chatId) => this.settingsFor(chatId),
      save: (s) => this.save(s),
      log: (s, e) => this.monitor.log(s, e),
      alertAdmins: (s, alert) => this.alertAdmins(s, alert),
      isAdmin: (chatId, userId) => this.isAdmin(chatId, userId),
      offers: (name) => this.handlers.has(name),
    };
    const withDepth = { ...deps, stats: this.buffers.stats, members: this.buffers.members, queueDepth: () => this.queueDepth };
    this.features = (o.features ?? DEFAULT_FEATURES).map((f) => f(this.services, withDepth));
    for (const f of this.features) {
      for (const [name, handler] of Object.entries(f.commands ?? {})) {
        // The first module to claim a command answers it.
        if (!this.handlers.has(name as CommandName)) this.handlers.set(name as CommandName, handler as (run: CommandRun, cmd: Command) => Promise<void>);
      }
    }
  }

  /** Messages being scanned plus screenings waiting on the engine. */
  get queueDepth(): number {
    return this.scansInProgress + this.cache.pending;
  }

  parse(text: string): ParseResult | null {
    const o = this.deps.options;
    return parseCommand(text, o?.botUsername ? { dialect: this.deps.dialect, botUsername: o.botUsername } : { dialect: this.deps.dialect });
  }

  // ---------------------------------------------------------------- settings

  /** A chat's settings from the store itself (commands, payments, the timer); the copy for messages takes them too. */
  async settingsFor(chatId: string): Promise<ChatSettings> {
    const stored = await this.deps.settings.get(chatId);
    this.buffers.read(chatId, stored);
    return stored ?? defaultSettings(chatId, this.deps.platform, this.deps.clock.now());
  }

  private async save(s: ChatSettings): Promise<ChatSettings> {
    const saved = { ...s, updatedAt: this.deps.clock.now().toISOString() };
    await this.deps.settings.save(saved);
    this.buffers.saved(saved);
    return saved;
  }

  /** Writes the counters and last-seen times waiting in memory now. */
  flush(): Promise<void> {
    return this.buffers.flush();
  }

  /** On shutdown: writes what is waiting and stops the write-behind timer. */
  close(): Promise<void> {
    return this.buffers.close();
  }

  async isAdmin(chatId: string, userId: string): Promise<boolean> {
    const admins = await this.deps.chat.listAdmins(chatId);
    return admins.some((a) => a.id === userId);
  }

  private async alertAdmins(s: ChatSettings, alert: Reply): Promise<void> {
    if (s.alerts.kind === "here") return;
    const dest = s.alerts.kind === "me" ? s.alerts.userId : s.alerts.chatId;
    await bestEffort(this.deps.chat.send(dest, { blocks: [heading(`🔔 Alert from chat ${s.chatId}`), ...alert.blocks] }));
  }

  // ---------------------------------------------------------------- time

  /**
   * Ends lockdowns and learning periods that are due, then runs the modules' timer work
   * (operators' support answers are delivered here). Apps call it on a timer; every event in
   * a chat also checks its own chat first, so nothing waits on the timer to be correct.
   */
  async tick(now: Date = this.deps.clock.now()): Promise<void> {
    for (const s of await this.deps.settings.due(now)) await this.expireIfDue(s, now);
    for (const f of this.features) await f.tick?.(now);
  }

  private async expireIfDue(s: ChatSettings, now: Date): Promise<ChatSettings> {
    let cur = s;
    for (const f of this.features) if (f.expire) cur = await f.expire(cur, now);
    return cur;
  }

  private async current(chatId: string): Promise<ChatSettings> {
    return this.expireIfDue(await this.settingsFor(chatId), this.deps.clock.now());
  }

  // ---------------------------------------------------------------- messages

  /** A message in a group: remembered sender (id + name), then the first feature that handles it (learning, monitoring). */
  async onMessage(msg: IncomingMessage): Promise<ScanOutcome> {
    const none: ScanOutcome = { entities: 0, decision: { action: "none", findings: [], softened: null }, performed: [] };
    const chatId = msg.ref.chatId;
    const now = this.deps.clock.now();
    // The settings copy for messages: no database read per message (StoreBuffers).
    const s = await this.expireIfDue((await this.buffers.settingsForMessage(chatId)) ?? defaultSettings(chatId, this.deps.platform, now), now);
    // Someone speaking for the chat (an anonymous admin, the linked channel) is not a member to remember.
    if (msg.sender && !msg.sender.isBot && !msg.senderIsAdmin) {
      const changed = await this.buffers.members.remember(chatId, msg.sender, now);
      if (changed) for (const f of this.features) await f.onMember?.(s, msg.sender, "message");
    }
    if (!s.monitoring && s.learn === null) return none;
    if (!planAllows(s, now, this.deps.options?.minimumPlan)) return none;
    this.scansInProgress++;
    try {
      for (const f of this.features) {
        const outcome = await f.onMessage?.(msg, s);
        if (outcome) return outcome;
      }
      return none;
    } finally {
      this.scansInProgress--;
    }
  }

  /** Personal scanning in a direct message: every entity found gets a verdict. */
  async onPrivateMessage(msg: PrivateMessage): Promise<void> {
    for (const f of this.features) if (await f.onPrivateMessage?.(msg)) return;
  }

  // ---------------------------------------------------------------- membership

  /** The bot's own status changed: made admin → monitoring starts (SPEC: no signup needed). */
  async onBotMembership(chatId: string, rights: BotRights): Promise<void> {
    if (!rights.isAdmin && !rights.was?.isAdmin) return;
    const s = await this.current(chatId);
    for (const f of this.features) await f.onBotMembership?.(chatId, rights, s);
  }

  async onJoin(e: JoinEvent): Promise<void> {
    const s = await this.current(e.chatId);
    await this.buffers.members.remember(e.chatId, e.user, this.deps.clock.now());
    if (e.user.isBot) return;
    const state: JoinState = { bunched: false };
    for (const f of this.features) if ((await f.onJoin?.(e, s, state)) === "stop") return;
  }

  // ---------------------------------------------------------------- commands

  /**
   * Runs a parsed command. Answers false for commands the app handles itself (payments), and
   * for things that are not ours, so the app can fall through.
   */
  async onCommand(ctx: CommandContext, parsed: ParseResult): Promise<boolean> {
    const d = this.deps.dialect;
    if (!parsed.ok) {
      if (parsed.name !== null) {
        await this.respond(ctx, { blocks: [text(parsed.usage)] });
        return true;
      }
      // Unknown commands in groups are probably for another bot: stay quiet there.
      if (ctx.chatKind === "private") await this.respond(ctx, { blocks: [text(`I don't know that command. ${spell(d, "start")} lists what I can do.`)] });
      return false;
    }
    const cmd = parsed.command;
    if (cmd.name === "subscribe" || cmd.name === "refund") return false;
    if (ctx.chatKind === "private" && GROUP_ONLY.has(cmd.name)) {
      await this.respond(ctx, { blocks: [text(`${spell(d, cmd.name)} works in a group where I am an admin. Add me to your group and run it there.`)] });
      return true;
    }
    if (ADMIN_COMMANDS.has(cmd.name) && !(ctx.senderIsAdmin === true || (await this.isAdmin(ctx.chatId, ctx.sender.id)))) {
      await this.respond(ctx, {
        blocks: [text(`Sorry, ${spell(d, cmd.name)} is for the admins of this group. You can still use ${spell(d, "check")}, ${spell(d, "report")} and ${spell(d, "status")}.`)],
      });
      return true;
    }
    const s = ctx.chatKind === "private" ? await this.settingsFor(ctx.chatId) : await this.current(ctx.chatId);
    const min = this.deps.options?.minimumPlan;
    if (!ALWAYS_AVAILABLE.has(cmd.name) && !planAllows(s, this.deps.clock.now(), min)) {
      await this.respond(ctx, { blocks: [text(`This bot needs the ${min} plan or higher. An admin can bind one with ${commandSyntax(d, "connect")}.`)] });
      return true;
    }
    const run: CommandRun = {
      ctx,
      settings: s,
      now: this.deps.clock.now(),
      respond: (r) => this.respond(ctx, r),
      say: (...blocks: Block[]) => this.respond(ctx, { blocks }),
    };
    const handler = this.handlers.get(cmd.name);
    if (handler) await handler(run, cmd);
    else await run.say(text(`${spell(d, cmd.name)} is not available here.`));
    return true;
  }

  /** Parses and runs a text command; false when the text is not a command for us. */
  async onText(ctx: CommandContext, raw: string): Promise<boolean> {
    const parsed = this.parse(raw);
    if (!parsed) return false;
    return this.onCommand(ctx, parsed);
  }

  /**
   * A button press (`<name>:<arg>`, as the kernel's replies carry them): answers the short notice
   * to show whoever pressed it. Unknown actions get a polite answer, never an error.
   */
  async onAction(ctx: CommandContext, action: string): Promise<string> {
    const colon = action.indexOf(":");
    const name = colon < 0 ? action : action.slice(0, colon);
    const arg = colon < 0 ? "" : action.slice(colon + 1);
    for (const f of this.features) {
      const handler = f.actions?.[name];
      if (handler) return handler(ctx, arg);
    }
    return "This button no longer does anything.";
  }

  private respond(ctx: CommandContext, r: Reply): Promise<void> {
    return ctx.message ? this.deps.chat.reply(ctx.message, r) : this.deps.chat.send(ctx.chatId, r);
  }

  // ---------------------------------------------------------------- plans and payments

  /**
   * A purchase as a settings change, for `PaymentLedger.record` to apply in the transaction that
   * records the payment: `tier` for `days` days from now, or from the end of a running purchase
   * of the same tier (paying again before the period is over extends it rather than losing the rest).
   * An API-key plan is left as it is.
   */
  purchaseGrant(chatId: string, tier: Exclude<PlanTier, "free">, days: number, by: string): PlanGrant {
    return purchaseGrant(this.services, chatId, this.deps.clock.now(), tier, days, by);
  }

  /** After a purchase was recorded and granted (`purchaseGrant`): logs the upgrade and answers the settings in force. */
  async planPurchased(chatId: string): Promise<ChatSettings> {
    const s = await this.settingsFor(chatId);
    await this.monitor.log(s, { action: `plan upgraded: ${s.plan.tier} until ${s.plan.until?.slice(0, 10) ?? "further notice"}`, policy: s.policy, chatId, user: null });
    return s;
  }

  /**
   * After a refund: the chat's purchased plan worked out again from its purchases that still
   * stand (`planFromPurchases`), so only the refunded purchase's time is taken back. A plan
   * bound by API key is left alone.
   */
  purchasesChanged(chatId: string, payments: readonly Payment[], days: number): Promise<ChatSettings> {
    return purchasesChanged(this.services, chatId, payments, days);
  }

  /** Ends a purchased plan early. A plan bound by API key is left alone. Prefer `purchasesChanged`, which keeps other buyers' time. */
  async revokePurchasedPlan(chatId: string): Promise<void> {
    const s = await this.settingsFor(chatId);
    if (s.plan.source !== "stars") return;
    await this.save({ ...s, plan: { tier: "free", source: "none", until: null } });
    await this.monitor.log(s, { action: "plan refunded, back to free", policy: s.policy, chatId, user: null });
  }

  /** For tests and docs: the decision a message would get, without acting. */
  async dryRun(chatId: string, text: string, sender: ChatUser | null): Promise<Decision> {
    const s = await this.settingsFor(chatId);
    const msg: IncomingMessage = { ref: { chatId, messageId: "dry-run" }, sender, text };
    return this.monitor.decideFor(msg, s, await this.monitor.assess(text, s));
  }
}
