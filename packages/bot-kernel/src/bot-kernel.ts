import { hashApiKey, hostOf, isWellFormedApiKey, parseEntity } from "@svc/core";
import { JoinWindows, raidTriggered } from "./anti-raid.js";
import type { ChatPort, ChatUser, MessageRef, ResolvedMember, UserRef } from "./chat-port.js";
import { ADMIN_COMMANDS, commandPurpose, commandSyntax, parseCommand, spell, type Command, type CommandName, type Dialect, type ParseResult } from "./commands.js";
import { auditMembers, checkMember, prepareAdmins } from "./impersonation.js";
import { baselineReply, recordLearn, routineDomains, startLearn } from "./learn-mode.js";
import { bestEffort, isTrustedUser, Monitor, type Capabilities, type IncomingMessage, type ScanOutcome } from "./monitoring.js";
import type { Decision } from "./policy.js";
import { isVerdict, type Clock, type MemberDirectory, type PlanGrant, type PlanResolver, type PlanTier, type ReportSink, type ScreeningPort, type StatsStore, type SupportDesk } from "./ports.js";
import { defang, verdictBlocks, verdictReply } from "./render.js";
import { code, heading, list, note, text, type Block, type Reply } from "./reply.js";
import { DEFAULT_POLICY, defaultSettings, effectivePlan, LIMITS, planAtLeast, type ChatSettings, type SettingsStore } from "./settings.js";
import { VerdictCache, type VerdictCacheOptions } from "./verdict-cache.js";

export type ChatKind = "private" | "group" | "channel";

export interface CommandContext {
  readonly chatId: string;
  readonly chatKind: ChatKind;
  readonly sender: ChatUser;
  /** The command message, to reply to (and to delete when it carried an API key). */
  readonly message: MessageRef | null;
  /** The author of the message the command replied to: `/verify` as a reply needs no argument. */
  readonly replyToUser?: ChatUser | null;
  /** The platform already knows the sender speaks for the chat (Telegram anonymous admins). */
  readonly senderIsAdmin?: boolean;
  /** Only the bot saw the command's arguments (Discord slash-command options): nothing to take down. */
  readonly argumentsPrivate?: boolean;
}

export interface PrivateMessage {
  readonly ref: MessageRef;
  readonly sender: ChatUser;
  readonly text: string;
  /** Set for forwarded messages: who the original was from, as far as the platform tells. */
  readonly forwardedFrom?: { readonly name: string; readonly username?: string } | null;
}

export interface JoinEvent {
  readonly chatId: string;
  readonly user: ChatUser;
}

export interface BotRights {
  readonly isAdmin: boolean;
  readonly canDelete: boolean;
  readonly canRestrict: boolean;
}

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

export interface KernelOptions {
  readonly botName?: string;
  /** Without @; commands addressed to another bot (`/check@other_bot`) are ignored. */
  readonly botUsername?: string;
  readonly capabilities?: Capabilities;
  /** Plans below this cannot use the bot beyond /start, /connect, /support (Discord, WhatsApp: starter; Slack: pro). */
  readonly minimumPlan?: PlanTier;
  readonly cache?: VerdictCacheOptions;
  /** Distinct entities screened per message at most; the rest are ignored (and the extraction says truncated). */
  readonly maxEntitiesPerMessage?: number;
  /** Impersonation alerts fire at or above this score (0..1). */
  readonly impersonationAlertScore?: number;
  /** Extra lines for /start (e.g. the add-to-group link). */
  readonly startButtons?: Reply["buttons"];
}

const ALWAYS_AVAILABLE: ReadonlySet<CommandName> = new Set<CommandName>(["start", "connect", "support", "subscribe", "refund", "status"]);
/** Commands that act on a group and make no sense in a direct message. */
const GROUP_ONLY: ReadonlySet<CommandName> = new Set<CommandName>([...ADMIN_COMMANDS, "status"]);

/**
 * The platform-neutral bot: commands, monitoring, anti-raid, learn mode, impersonation audit.
 * Apps translate platform events into these calls and render the replies; everything the
 * kernel remembers goes through the ports (settings, stats, members), and no port is ever
 * given a message's text.
 */
export class BotKernel {
  readonly cache: VerdictCache;
  private readonly monitor: Monitor;
  private readonly joins = new JoinWindows();
  private readonly capabilities: Capabilities;
  private scansInProgress = 0;

  constructor(private readonly deps: KernelDeps) {
    const o = deps.options ?? {};
    this.capabilities = o.capabilities ?? { delete: true, ban: true, restrict: true };
    this.cache = new VerdictCache(deps.screening, deps.clock, o.cache);
    this.monitor = new Monitor({
      chat: deps.chat,
      cache: this.cache,
      stats: deps.stats,
      clock: deps.clock,
      capabilities: this.capabilities,
      maxEntities: o.maxEntitiesPerMessage ?? 10,
      appealCommand: (entity) => `${spell(deps.dialect, "report")} ${entity} false_positive`,
      isAdmin: (chatId, userId) => this.isAdmin(chatId, userId),
    });
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

  async settingsFor(chatId: string): Promise<ChatSettings> {
    return (await this.deps.settings.get(chatId)) ?? defaultSettings(chatId, this.deps.platform, this.deps.clock.now());
  }

  private async save(s: ChatSettings): Promise<ChatSettings> {
    const saved = { ...s, updatedAt: this.deps.clock.now().toISOString() };
    await this.deps.settings.save(saved);
    return saved;
  }

  async isAdmin(chatId: string, userId: string): Promise<boolean> {
    const admins = await this.deps.chat.listAdmins(chatId);
    return admins.some((a) => a.id === userId);
  }

  // ---------------------------------------------------------------- time

  /**
   * Ends lockdowns and learning periods that are due. Apps call it on a timer; every event in
   * a chat also checks its own chat first, so nothing waits on the timer to be correct.
   */
  async tick(now: Date = this.deps.clock.now()): Promise<void> {
    for (const s of await this.deps.settings.due(now)) await this.expireIfDue(s, now);
  }

  private async expireIfDue(s: ChatSettings, now: Date): Promise<ChatSettings> {
    let cur = s;
    if (cur.lockdownUntil !== null && Date.parse(cur.lockdownUntil) <= now.getTime()) {
      cur = await this.save({ ...cur, lockdownUntil: null });
      this.joins.clear(cur.chatId);
      await this.deps.chat.send(cur.chatId, { blocks: [heading("✅ Raid lockdown lifted"), text("New members can talk again.")] });
      await this.monitor.log(cur, { action: "lockdown lifted (automatic)", policy: cur.policy, chatId: cur.chatId, user: null });
    }
    if (cur.learn !== null && Date.parse(cur.learn.until) <= now.getTime()) cur = await this.finishLearn(cur, now);
    return cur;
  }

  private async current(chatId: string): Promise<ChatSettings> {
    return this.expireIfDue(await this.settingsFor(chatId), this.deps.clock.now());
  }

  // ---------------------------------------------------------------- messages

  /** A message in a group: remembered sender (id + name), then monitoring or learning. */
  async onMessage(msg: IncomingMessage): Promise<ScanOutcome> {
    const none: ScanOutcome = { entities: 0, decision: { action: "none", findings: [], softened: null }, performed: [] };
    const chatId = msg.ref.chatId;
    let s = await this.current(chatId);
    if (msg.sender && !msg.sender.isBot) {
      const changed = await this.deps.members.remember(chatId, msg.sender, this.deps.clock.now());
      if (changed && s.monitoring && !msg.senderIsAdmin) await this.checkImpersonation(s, msg.sender, "message");
    }
    if (!s.monitoring && s.learn === null) return none;
    if (this.deps.options?.minimumPlan && !planAtLeast(effectivePlan(s, this.deps.clock.now()), this.deps.options.minimumPlan)) return none;
    this.scansInProgress++;
    try {
      await this.deps.stats.add(chatId, "messages_scanned");
      const a = await this.monitor.assess(msg.text, s);
      if (a.assessed.length > 0) await this.deps.stats.add(chatId, "entities_checked", a.assessed.length);
      const decision = await this.monitor.decideFor(msg, s, a);
      if (s.learn !== null) {
        // Observe only: count what the policy would have done, act on nothing.
        s = await this.save({ ...s, learn: recordLearn(s.learn, a.extraction, decision.action !== "none") });
        return { entities: a.assessed.length, decision, performed: [] };
      }
      if (decision.action === "none") return { entities: a.assessed.length, decision, performed: [] };
      const performed = await this.monitor.act(msg, s, decision);
      return { entities: a.assessed.length, decision, performed };
    } finally {
      this.scansInProgress--;
    }
  }

  /** Personal scanning in a direct message: every entity found gets a verdict. */
  async onPrivateMessage(msg: PrivateMessage): Promise<void> {
    const a = await this.monitor.assess(msg.text, { blocklist: [], allowlist: { users: [], domains: [] } });
    const blocks: Block[] = [];
    if (msg.forwardedFrom) {
      blocks.push(text(`Forwarded from ${msg.forwardedFrom.name}${msg.forwardedFrom.username ? ` (@${msg.forwardedFrom.username})` : ""}.`));
      const title = checkMember({ id: "forwarded", name: msg.forwardedFrom.name, ...(msg.forwardedFrom.username ? { username: msg.forwardedFrom.username } : {}) }, []);
      if (title) blocks.push(text(`⚠️ The sender ${title.reason}. Real admins and support staff never message you first, and never ask for login codes, seed phrases, wallet connections or payments.`));
    }
    if (a.assessed.length === 0) {
      blocks.push(text("I found no link, domain, wallet, e-mail address or phone number to check. Send me one, or forward a suspicious message."));
      await this.deps.chat.reply(msg.ref, { blocks });
      return;
    }
    await this.deps.stats.add(msg.ref.chatId, "checks", a.assessed.length);
    for (const x of a.assessed.slice(0, 5)) {
      if (x.verdict) blocks.push(...verdictBlocks(x.verdict, x.entity.value));
      else blocks.push(heading("⚪ Could not check"), code(defang(x.entity.value)), text("The check failed; this says nothing about its safety. Try again later."));
      if (x.linkMismatch) blocks.push(text(`⚠️ The link text shows ${x.linkMismatch.shown}, but the link opens ${defang(x.entity.value)}.`));
    }
    if (a.assessed.length > 5) blocks.push(text(`…and ${a.assessed.length - 5} more. Send them separately to check them too.`));
    const disclaimer = a.assessed.find((x) => x.verdict)?.verdict?.disclaimer;
    if (disclaimer) blocks.push(note(disclaimer));
    await this.deps.chat.reply(msg.ref, { blocks });
  }

  // ---------------------------------------------------------------- membership

  /** The bot's own status changed: made admin → monitoring starts (SPEC: no signup needed). */
  async onBotMembership(chatId: string, rights: BotRights): Promise<void> {
    if (!rights.isAdmin) return;
    const s = await this.current(chatId);
    const wasOn = s.monitoring;
    const saved = await this.save({ ...s, monitoring: true });
    if (wasOn) return;
    const missing: string[] = [];
    if (!rights.canDelete) missing.push("Delete messages (without it I can only warn)");
    if (!rights.canRestrict) missing.push("Ban users (needed for the ban policy, /banuser and anti-raid)");
    const blocks: Block[] = [
      heading("🛡 svc is now protecting this group"),
      text(`Monitoring is on with the "${saved.policy}" policy: links, wallets, e-mails and phone numbers in messages are checked, and risky ones are handled with the reason and an appeal path. Message text is never stored.`),
      text(`Admins: ${spell(this.deps.dialect, "policy")} notify|delete|ban, ${spell(this.deps.dialect, "learn")} 7 to observe first, ${spell(this.deps.dialect, "settings")} to see everything.`),
    ];
    if (missing.length > 0) blocks.push(text("Please also give me these admin rights:"), list(missing));
    await this.deps.chat.send(chatId, { blocks });
  }

  async onJoin(e: JoinEvent): Promise<void> {
    const now = this.deps.clock.now();
    let s = await this.current(e.chatId);
    await this.deps.members.remember(e.chatId, e.user, now);
    if (e.user.isBot) return;
    const lockedUntil = s.lockdownUntil !== null ? new Date(s.lockdownUntil) : null;
    if (lockedUntil && s.antiRaid.enabled) {
      if (await this.deps.chat.restrict(e.chatId, e.user.id, lockedUntil)) await this.deps.stats.add(e.chatId, "restrictions");
      await this.monitor.log(s, { action: "new member muted (lockdown)", policy: s.policy, chatId: e.chatId, user: e.user, detail: `Until: ${lockedUntil.toISOString()}` });
      return;
    }
    if (s.antiRaid.enabled) {
      const window = this.joins.record(e.chatId, { at: now.getTime(), userId: e.user.id }, s.antiRaid);
      if (raidTriggered(window, s.antiRaid)) {
        const until = new Date(now.getTime() + s.antiRaid.lockdownMinutes * 60_000);
        s = await this.save({ ...s, lockdownUntil: until.toISOString() });
        await this.deps.stats.add(e.chatId, "lockdowns");
        let muted = 0;
        for (const id of new Set(window.map((j) => j.userId))) if (await this.deps.chat.restrict(e.chatId, id, until)) muted++;
        await this.deps.stats.add(e.chatId, "restrictions", muted);
        const alert: Reply = {
          blocks: [
            heading("🚨 Raid detected: lockdown on"),
            text(`${window.length} people joined within ${s.antiRaid.minutes} minute(s) (threshold ${s.antiRaid.joins}). New members are muted until ${until.toISOString().slice(11, 16)} UTC; the lockdown lifts itself then.`),
            text(`Muted so far: ${muted}. Admins: check the newcomers, and use ${spell(this.deps.dialect, "banuser")} on raiders.`),
          ],
        };
        await this.deps.chat.send(e.chatId, alert);
        await this.alertAdmins(s, alert);
        await this.monitor.log(s, { action: "lockdown started", policy: s.policy, chatId: e.chatId, user: null, detail: `Joins: ${window.length} in ${s.antiRaid.minutes} min; lifts ${until.toISOString()}; muted ${muted}` });
        return;
      }
    }
    if (s.monitoring) await this.checkImpersonation(s, e.user, "join");
    if (s.welcome.mode !== "off") {
      const custom = s.welcome.mode === "custom" ? s.welcome.text.replaceAll("{name}", e.user.name) : null;
      await this.deps.chat.send(e.chatId, {
        blocks: custom
          ? [text(custom)]
          : [text(`Welcome, ${e.user.name}! Links, wallets and contacts posted here are checked for scams.`), note("Admins will never message you first or ask for codes, seed phrases or payments.")],
      });
    }
  }

  /** A newcomer or renamed member who looks like an admin: warn right away, before the DMs start. */
  private async checkImpersonation(s: ChatSettings, user: ChatUser, when: "join" | "message"): Promise<void> {
    if (isTrustedUser(user, s)) return;
    const admins = await this.deps.chat.listAdmins(s.chatId);
    const f = checkMember(user, prepareAdmins(admins));
    if (!f || f.score < (this.deps.options?.impersonationAlertScore ?? 0.8)) return;
    const alert: Reply = {
      blocks: [
        heading("⚠️ Possible admin impersonator"),
        text(`${user.name}${user.username ? ` (@${user.username})` : ""} ${f.reason}. Admins of this group will never DM you first.`),
        note(`Admins: ${spell(this.deps.dialect, "verify")} ${user.id} · ${spell(this.deps.dialect, "banuser")} ${user.id}`),
      ],
    };
    await this.deps.chat.send(s.chatId, alert);
    await this.alertAdmins(s, alert);
    await this.monitor.log(s, { action: `impersonation alert (${when})`, policy: s.policy, chatId: s.chatId, user, detail: `Reason: ${f.reason} (score ${f.score.toFixed(2)})` });
  }

  private async alertAdmins(s: ChatSettings, alert: Reply): Promise<void> {
    if (s.alerts.kind === "here") return;
    const dest = s.alerts.kind === "me" ? s.alerts.userId : s.alerts.chatId;
    await bestEffort(this.deps.chat.send(dest, { blocks: [heading(`🔔 Alert from chat ${s.chatId}`), ...alert.blocks] }));
  }

  // ---------------------------------------------------------------- commands

  /**
   * Runs a parsed command. Answers false for commands the app handles itself (payments), and
   * for things that are not ours, so the app can fall through.
   */
  async onCommand(ctx: CommandContext, parsed: ParseResult): Promise<boolean> {
    if (!parsed.ok) {
      if (parsed.name !== null) {
        await this.respond(ctx, { blocks: [text(parsed.usage)] });
        return true;
      }
      // Unknown commands in groups are probably for another bot: stay quiet there.
      if (ctx.chatKind === "private") await this.respond(ctx, { blocks: [text(`I don't know that command. ${spell(this.deps.dialect, "start")} lists what I can do.`)] });
      return false;
    }
    const cmd = parsed.command;
    if (cmd.name === "subscribe" || cmd.name === "refund") return false;
    if (ctx.chatKind === "private" && GROUP_ONLY.has(cmd.name)) {
      await this.respond(ctx, { blocks: [text(`${spell(this.deps.dialect, cmd.name)} works in a group where I am an admin. Add me to your group and run it there.`)] });
      return true;
    }
    if (ADMIN_COMMANDS.has(cmd.name) && !(ctx.senderIsAdmin === true || (await this.isAdmin(ctx.chatId, ctx.sender.id)))) {
      await this.respond(ctx, {
        blocks: [text(`Sorry, ${spell(this.deps.dialect, cmd.name)} is for the admins of this group. You can still use ${spell(this.deps.dialect, "check")}, ${spell(this.deps.dialect, "report")} and ${spell(this.deps.dialect, "status")}.`)],
      });
      return true;
    }
    const s = ctx.chatKind === "private" ? await this.settingsFor(ctx.chatId) : await this.current(ctx.chatId);
    const min = this.deps.options?.minimumPlan;
    if (min && !ALWAYS_AVAILABLE.has(cmd.name) && !planAtLeast(effectivePlan(s, this.deps.clock.now()), min)) {
      await this.respond(ctx, { blocks: [text(`This bot needs the ${min} plan or higher. An admin can bind one with ${commandSyntax(this.deps.dialect, "connect")}.`)] });
      return true;
    }
    await this.run(ctx, cmd, s);
    return true;
  }

  /** Parses and runs a text command; false when the text is not a command for us. */
  async onText(ctx: CommandContext, raw: string): Promise<boolean> {
    const parsed = this.parse(raw);
    if (!parsed) return false;
    return this.onCommand(ctx, parsed);
  }

  private respond(ctx: CommandContext, r: Reply): Promise<void> {
    return ctx.message ? this.deps.chat.reply(ctx.message, r) : this.deps.chat.send(ctx.chatId, r);
  }

  private say(ctx: CommandContext, ...blocks: Block[]): Promise<void> {
    return this.respond(ctx, { blocks });
  }

  private async run(ctx: CommandContext, cmd: Command, s: ChatSettings): Promise<void> {
    const d = this.deps.dialect;
    const now = this.deps.clock.now();
    switch (cmd.name) {
      case "start":
        return this.start(ctx);
      case "check": {
        const p = parseEntity(cmd.entity);
        if (!p.ok) return this.say(ctx, text(`I can't check that: ${p.error.message}`), text(`Usage: ${commandSyntax(d, "check")}`));
        await this.deps.stats.add(ctx.chatId, "checks");
        const outcome = await this.cache.screen(p.entity.id, p.entity.value);
        if (!isVerdict(outcome)) return this.say(ctx, heading("⚪ Could not check"), text(`${outcome.error.message} This says nothing about its safety; try again later.`));
        return this.respond(ctx, verdictReply(outcome, p.entity.value));
      }
      case "report": {
        const p = parseEntity(cmd.entity);
        if (!p.ok) return this.say(ctx, text(`I can't report that: ${p.error.message}`), text(`Usage: ${commandSyntax(d, "report")}`));
        const filed = await this.deps.reports.file({
          entity: { type: p.entity.type, value: p.entity.value, id: p.entity.id },
          category: cmd.category,
          ...(cmd.feedback ? { feedback: cmd.feedback } : {}),
          reporter: { platform: this.deps.platform, userId: ctx.sender.id },
          channel: { platform: this.deps.platform, chatId: ctx.chatId },
          reportedAt: now.toISOString(),
        });
        await this.deps.stats.add(ctx.chatId, "reports");
        if (cmd.feedback === "false_positive") {
          await this.monitor.log(s, { action: "appeal filed (false positive)", policy: s.policy, chatId: ctx.chatId, user: ctx.sender, detail: `Entity: ${p.entity.id}; report ${filed.id}` });
          return this.say(ctx, text(`Thanks: your appeal for ${defang(p.entity.value)} is filed as ${filed.id}. Reviewers look at it, and group admins can approve the domain with ${spell(d, "allowlist")} domain <domain>.`));
        }
        return this.say(ctx, text(`Thanks: ${defang(p.entity.value)} is reported as ${cmd.category} (${filed.id}). Reports are reviewed before they change verdicts.`));
      }
      case "status":
        return this.status(ctx, s);
      case "protect": {
        const saved = await this.save({ ...s, monitoring: true, policy: DEFAULT_POLICY, antiRaid: { ...s.antiRaid, enabled: true } });
        await this.monitor.log(saved, { action: "protection on", policy: saved.policy, chatId: ctx.chatId, user: ctx.sender });
        return this.say(ctx, heading("🛡 Protection on"), text(`Monitoring with the "${saved.policy}" policy, anti-raid at ${saved.antiRaid.joins} joins in ${saved.antiRaid.minutes} minute(s).`), note(`Change it with ${spell(d, "policy")} or ${spell(d, "antiraid")}.`));
      }
      case "monitor":
      case "unmonitor": {
        const on = cmd.name === "monitor";
        const saved = await this.save({ ...s, monitoring: on });
        await this.monitor.log(saved, { action: on ? "monitoring on" : "monitoring off", policy: saved.policy, chatId: ctx.chatId, user: ctx.sender });
        return this.say(ctx, text(on ? `Monitoring is on (policy "${saved.policy}").` : "Monitoring is off. Commands still work."));
      }
      case "policy": {
        if ((cmd.policy === "delete" && !this.capabilities.delete) || (cmd.policy === "ban" && !this.capabilities.ban)) {
          return this.say(ctx, text(`On this platform I can only use the notify policy: the platform does not let bots ${cmd.policy === "ban" ? "ban members" : "delete messages"}.`));
        }
        const saved = await this.save({ ...s, policy: cmd.policy });
        await this.monitor.log(saved, { action: `policy set to ${cmd.policy}`, policy: cmd.policy, chatId: ctx.chatId, user: ctx.sender });
        const what = { notify: "I will warn under risky messages.", delete: "I will delete risky messages and say why.", ban: "I will delete risky messages, ban the sender and say why." }[cmd.policy];
        return this.say(ctx, text(`Policy set to ${cmd.policy}. ${what}`));
      }
      case "alerts": {
        const dest = cmd.destination.kind === "me" ? { kind: "me" as const, userId: ctx.sender.id } : cmd.destination;
        await this.save({ ...s, alerts: dest });
        const where = dest.kind === "here" ? "this chat" : dest.kind === "me" ? "you, in a direct message (start a chat with me first, or I cannot write to you)" : `chat ${dest.chatId}`;
        return this.say(ctx, text(`Alerts go to ${where}.`));
      }
      case "antiraid": {
        const antiRaid =
          cmd.action === "set"
            ? { enabled: true, joins: cmd.joins, minutes: cmd.minutes, lockdownMinutes: cmd.lockdownMinutes ?? s.antiRaid.lockdownMinutes }
            : { ...s.antiRaid, enabled: cmd.action === "on" };
        const saved = await this.save({ ...s, antiRaid, ...(cmd.action === "off" ? { lockdownUntil: null } : {}) });
        if (cmd.action === "off") this.joins.clear(ctx.chatId);
        const a = saved.antiRaid;
        return this.say(ctx, text(a.enabled ? `Anti-raid on: ${a.joins} joins within ${a.minutes} minute(s) start a ${a.lockdownMinutes}-minute lockdown.` : "Anti-raid off."));
      }
      case "welcome": {
        const welcome = cmd.mode === "set" ? { mode: "custom" as const, text: cmd.text } : { mode: cmd.mode };
        await this.save({ ...s, welcome });
        return this.say(ctx, text(cmd.mode === "set" ? "Custom welcome message saved ({name} is replaced by the newcomer's name)." : `Welcome messages ${cmd.mode}.`));
      }
      case "learn":
        return this.learn(ctx, cmd, s, now);
      case "connect":
        return this.connect(ctx, cmd.apiKey, s);
      case "audit":
        return this.audit(ctx, s);
      case "verify":
        return this.verify(ctx, cmd.user);
      case "banuser":
        return this.banUser(ctx, cmd.user, s);
      case "blocklist":
        return this.blocklist(ctx, cmd, s);
      case "allowlist":
        return this.allowlist(ctx, cmd, s);
      case "setlog": {
        const channel = cmd.channel === "here" ? ctx.chatId : cmd.channel;
        if (channel !== null) {
          try {
            await this.deps.chat.send(channel, { blocks: [text(`📋 This chat now receives the svc log of chat ${ctx.chatId}.`)] });
          } catch {
            return this.say(ctx, text(`I can't post in ${channel}. Add me there as an admin first, then try again.`));
          }
        }
        await this.save({ ...s, logChannel: channel });
        return this.say(ctx, text(channel === null ? "Logging off." : `Actions are logged to ${channel}.`));
      }
      case "settings":
        return this.showSettings(ctx, s);
      case "support": {
        if (cmd.text.length === 0) {
          return this.say(
            ctx,
            heading("Payment support"),
            text("Describe the problem after the command and a ticket is opened. Purchases made with the in-app currency can be refunded within 14 business days with /refund."),
          );
        }
        const t = await this.deps.support.open({ platform: this.deps.platform, chatId: ctx.chatId, userId: ctx.sender.id, topic: cmd.topic, text: cmd.text, openedAt: now.toISOString() });
        return this.say(ctx, text(`Ticket ${t.id} opened. We answer here or in a direct message.`));
      }
      case "admin_add":
        return this.say(ctx, text("Adding admins by command is only available on WhatsApp; here, group admins are the platform's own admins."));
      default:
        return this.say(ctx, text(`${spell(d, cmd.name)} is not available here.`));
    }
  }

  private start(ctx: CommandContext): Promise<void> {
    const d = this.deps.dialect;
    const all: CommandName[] = ["check", "report", "status", "subscribe", "support", "protect", "monitor", "unmonitor", "policy", "alerts", "antiraid", "welcome", "learn", "connect", "audit", "verify", "banuser", "blocklist", "allowlist", "setlog", "settings"];
    const blocks: Block[] = [
      heading(`${this.deps.options?.botName ?? "svc"}: scam checks for groups`),
      text("Add me to a group and make me an admin: monitoring starts by itself. I check links, domains, wallets, e-mails and phone numbers, act on risky ones by the group's policy, and always say why and how to appeal. Message text is never stored."),
    ];
    if (ctx.chatKind === "private") blocks.push(text("Here in private, send or forward me anything suspicious and I reply with a verdict for each link, wallet or contact in it."));
    blocks.push(
      text("Everyone:"),
      list(all.filter((n) => !ADMIN_COMMANDS.has(n)).map((n) => `${commandSyntax(d, n)}: ${commandPurpose(n)}`)),
      text("Group admins:"),
      list(all.filter((n) => ADMIN_COMMANDS.has(n)).map((n) => `${commandSyntax(d, n)}: ${commandPurpose(n)}`)),
      note("I never ask for login codes, seed phrases, wallet connections or payments in private. Automated risk indicators, not legal, financial or investment advice."),
    );
    const buttons = this.deps.options?.startButtons;
    return this.respond(ctx, buttons ? { blocks, buttons } : { blocks });
  }

  private async status(ctx: CommandContext, s: ChatSettings): Promise<void> {
    const st = await this.deps.stats.get(ctx.chatId);
    const lines = [
      `Monitoring: ${s.monitoring ? `on (policy ${s.policy})` : "off"}`,
      ...(s.learn ? [`Learning until ${s.learn.until.slice(0, 16).replace("T", " ")} UTC (observing, not acting)`] : []),
      ...(s.lockdownUntil ? [`Raid lockdown until ${s.lockdownUntil.slice(11, 16)} UTC`] : []),
      `Messages scanned: ${st.messages_scanned}`,
      `Entities checked: ${st.entities_checked}`,
      `Actions taken: ${st.warnings} warnings, ${st.deletions} deletions, ${st.bans} bans, ${st.restrictions} mutes`,
      `Reports filed: ${st.reports}`,
      `Queue depth: ${this.queueDepth}`,
    ];
    return this.say(ctx, heading("📈 Status"), list(lines));
  }

  private showSettings(ctx: CommandContext, s: ChatSettings): Promise<void> {
    const now = this.deps.clock.now();
    const alerts = s.alerts.kind === "here" ? "here" : s.alerts.kind === "me" ? `direct message to user ${s.alerts.userId}` : `chat ${s.alerts.chatId}`;
    const plan = effectivePlan(s, now);
    const lines = [
      `Monitoring: ${s.monitoring ? "on" : "off"}`,
      `Policy: ${s.policy}`,
      `Alerts: ${alerts}`,
      `Anti-raid: ${s.antiRaid.enabled ? `${s.antiRaid.joins} joins / ${s.antiRaid.minutes} min → ${s.antiRaid.lockdownMinutes} min lockdown` : "off"}`,
      `Welcome: ${s.welcome.mode === "custom" ? `custom ("${s.welcome.text.slice(0, 60)}${s.welcome.text.length > 60 ? "…" : ""}")` : s.welcome.mode}`,
      `Blocklist: ${s.blocklist.length ? s.blocklist.join(", ") : "empty"}`,
      `Allowed users: ${s.allowlist.users.length ? s.allowlist.users.join(", ") : "none"}`,
      `Allowed domains: ${s.allowlist.domains.length ? s.allowlist.domains.join(", ") : "none"}`,
      `Log channel: ${s.logChannel ?? "none"}`,
      `Plan: ${plan}${s.plan.source === "api_key" ? " (bound with an API key)" : s.plan.source === "stars" && s.plan.until ? ` (in-app purchase, until ${s.plan.until.slice(0, 10)})` : ""}`,
      `Learning: ${s.learn ? `until ${s.learn.until.slice(0, 10)}` : "off"}`,
    ];
    return this.say(ctx, heading("⚙️ Settings"), list(lines));
  }

  private async learn(ctx: CommandContext, cmd: Extract<Command, { name: "learn" }>, s: ChatSettings, now: Date): Promise<void> {
    if (cmd.action === "start") {
      await this.save({ ...s, learn: startLearn(now, cmd.days) });
      return this.say(
        ctx,
        heading("👀 Learning mode"),
        text(`For ${cmd.days} day(s) I watch without acting: I count the domains this group shares routinely and how often the "${s.policy}" policy would have acted. Only counts are kept.`),
        note(`${spell(this.deps.dialect, "learn")} status shows the baseline so far; ${spell(this.deps.dialect, "learn")} stop ends it early.`),
      );
    }
    if (s.learn === null) return this.say(ctx, text(`Learning mode is off. Start it with ${spell(this.deps.dialect, "learn")} [days].`));
    if (cmd.action === "stop") {
      await this.finishLearn(s, now, ctx);
      return;
    }
    return this.respond(ctx, await this.baseline(s, now, false));
  }

  /** Screens the routine domains and suggests only those with no risk found. */
  private async baseline(s: ChatSettings, now: Date, ended: boolean): Promise<Reply> {
    const learn = s.learn as NonNullable<ChatSettings["learn"]>;
    const suggestions: string[] = [];
    for (const [domain] of routineDomains(learn, 3, 15)) {
      if (s.allowlist.domains.includes(domain)) continue;
      const outcome = await this.cache.screen(`domain:${domain}`, domain);
      if (isVerdict(outcome) && outcome.risk_level === "low") suggestions.push(domain);
    }
    return baselineReply(learn, {
      now,
      ended,
      policy: s.policy,
      suggestions,
      allowlistCommand: (dom) => `${spell(this.deps.dialect, "allowlist")} domain ${dom}`,
      endNote: `Monitoring is now on with the "${s.policy}" policy. Change it with ${spell(this.deps.dialect, "policy")}.`,
    });
  }

  private async finishLearn(s: ChatSettings, now: Date, ctx?: CommandContext): Promise<ChatSettings> {
    const report = await this.baseline(s, now, true);
    const saved = await this.save({ ...s, learn: null, monitoring: true });
    if (ctx) await this.respond(ctx, report);
    else await this.deps.chat.send(s.chatId, report);
    await this.monitor.log(saved, { action: "learning finished, monitoring on", policy: saved.policy, chatId: s.chatId, user: null, detail: `Messages observed: ${s.learn?.messages ?? 0}; would have acted on ${s.learn?.wouldAct ?? 0}` });
    return saved;
  }

  private async connect(ctx: CommandContext, key: string, s: ChatSettings): Promise<void> {
    // The key was posted where others can read it: take it down first, whatever happens next.
    const exposed = ctx.chatKind !== "private" && ctx.argumentsPrivate !== true;
    const removed = ctx.message && exposed ? await this.deps.chat.deleteMessage(ctx.message) : false;
    const hygiene = removed ? "I deleted your message because it contained the key." : exposed ? "Please delete your message: it contains the key." : "";
    const send = (...blocks: Block[]): Promise<void> => (removed ? this.deps.chat.send(ctx.chatId, { blocks }) : this.respond(ctx, { blocks }));
    if (!isWellFormedApiKey(key)) {
      return send(text(`That is not a valid API key (they start with svc_live_ and are 47 characters long; a typo breaks the checksum). ${hygiene}`.trim()), text(`Usage: ${commandSyntax(this.deps.dialect, "connect")}`));
    }
    const plan = await this.deps.plans.planForKey(key);
    if (plan === null) return send(text(`That key is not active (unknown or revoked). ${hygiene}`.trim()));
    await this.save({ ...s, plan: { tier: plan, source: "api_key", keyHash: hashApiKey(key), boundBy: ctx.sender.id, until: null } });
    await this.monitor.log(s, { action: `plan bound: ${plan}`, policy: s.policy, chatId: ctx.chatId, user: ctx.sender });
    return send(text(`This chat now uses the ${plan} plan, bound by ${ctx.sender.name}. ${hygiene}`.trim()));
  }

  private async audit(ctx: CommandContext, s: ChatSettings): Promise<void> {
    const admins = await this.deps.chat.listAdmins(ctx.chatId);
    const members = await this.deps.members.list(ctx.chatId);
    const exempt = new Set(members.filter((m) => isTrustedUser(m, s)).map((m) => m.id));
    const findings = auditMembers(members, admins, exempt);
    const d = this.deps.dialect;
    const blocks: Block[] = [heading("🔎 Impersonation audit"), text(`Compared ${members.length} member(s) I have seen with ${admins.length} admin(s), by look-alike characters and spelling.`)];
    if (findings.length === 0) blocks.push(text("No member imitates an admin."));
    else {
      blocks.push(list(findings.slice(0, 15).map((f) => `${describe(f.member)} ${f.reason}`)));
      if (findings.length > 15) blocks.push(text(`…and ${findings.length - 15} more.`));
      blocks.push(note(`Ban with ${spell(d, "banuser")} <id>; check one with ${spell(d, "verify")} <id>.`));
    }
    blocks.push(note("Platforms do not let bots list every member: only members seen joining or writing are compared."));
    await this.monitor.log(s, { action: "impersonation audit", policy: s.policy, chatId: ctx.chatId, user: ctx.sender, detail: `Suspects: ${findings.map((f) => f.member.id).join(", ") || "none"}` });
    return this.say(ctx, ...blocks);
  }

  private async resolveTarget(ctx: CommandContext, ref: UserRef | null): Promise<ResolvedMember | ChatUser | null> {
    if (ref === null) return ctx.replyToUser ?? null;
    let r: UserRef = ref;
    if (ref.kind === "username") {
      // Platforms cannot look up a username: the directory of seen members can.
      const seen = await this.deps.members.findByUsername(ctx.chatId, ref.username);
      if (seen) r = { kind: "id", id: seen.id };
      else {
        const admin = (await this.deps.chat.listAdmins(ctx.chatId)).find((a) => a.username?.toLowerCase() === ref.username);
        if (admin) return admin;
      }
    }
    const m = await this.deps.chat.resolveMember(ctx.chatId, r);
    if (m) return m;
    return r.kind === "id" ? ((await this.deps.members.get(ctx.chatId, r.id)) ?? null) : null;
  }

  private async verify(ctx: CommandContext, ref: UserRef | null): Promise<void> {
    const d = this.deps.dialect;
    if (ref === null && !ctx.replyToUser) return this.say(ctx, text(`Who? Usage: ${commandSyntax(d, "verify")}, or reply to their message with ${spell(d, "verify")}.`));
    const user = await this.resolveTarget(ctx, ref);
    if (!user) return this.say(ctx, text("I don't know that user. Reply to one of their messages with the command, or use their numeric id."));
    const admins = await this.deps.chat.listAdmins(ctx.chatId);
    if (admins.some((a) => a.id === user.id)) return this.say(ctx, text(`✅ ${describe(user)} is a real admin of this group.`));
    const f = checkMember(user, prepareAdmins(admins));
    return this.say(
      ctx,
      text(`❌ ${describe(user)} is NOT an admin of this group.`),
      ...(f ? [text(`⚠️ They ${f.reason}.`), note(`Ban with ${spell(d, "banuser")} ${user.id}.`)] : []),
    );
  }

  private async banUser(ctx: CommandContext, ref: UserRef | null, s: ChatSettings): Promise<void> {
    const d = this.deps.dialect;
    if (ref === null && !ctx.replyToUser) return this.say(ctx, text(`Who? Usage: ${commandSyntax(d, "banuser")}, or reply to their message with ${spell(d, "banuser")}.`));
    const user = await this.resolveTarget(ctx, ref);
    if (!user) return this.say(ctx, text("I don't know that user. Reply to one of their messages with the command, or use their numeric id."));
    if (await this.isAdmin(ctx.chatId, user.id)) return this.say(ctx, text(`${describe(user)} is an admin; I won't ban admins.`));
    if (!this.capabilities.ban || !(await this.deps.chat.ban(ctx.chatId, user.id))) {
      return this.say(ctx, text(`I could not ban ${describe(user)}. I need the admin right to ban users.`));
    }
    await this.deps.stats.add(ctx.chatId, "bans");
    const f = checkMember(user, prepareAdmins(await this.deps.chat.listAdmins(ctx.chatId)));
    await this.monitor.log(s, { action: "banned by admin", policy: s.policy, chatId: ctx.chatId, user, detail: `By: ${describe(ctx.sender)}${f ? `; ${f.reason}` : ""}` });
    return this.say(ctx, text(`🚫 ${describe(user)} is banned.`));
  }

  private async blocklist(ctx: CommandContext, cmd: Extract<Command, { name: "blocklist" }>, s: ChatSettings): Promise<void> {
    if (cmd.action === "list") {
      return this.say(ctx, ...(s.blocklist.length ? [text("Blocklist patterns:"), list(s.blocklist)] : [text(`The blocklist is empty. Add with ${commandSyntax(this.deps.dialect, "blocklist")}.`)]));
    }
    if (cmd.action === "clear") {
      await this.save({ ...s, blocklist: [] });
      return this.say(ctx, text("Blocklist cleared."));
    }
    if (cmd.action === "add") {
      if (s.blocklist.includes(cmd.pattern)) return this.say(ctx, text(`"${cmd.pattern}" is already on the blocklist.`));
      if (s.blocklist.length >= LIMITS.blocklistPatterns) return this.say(ctx, text(`The blocklist is full (${LIMITS.blocklistPatterns} patterns). Remove some first.`));
      await this.save({ ...s, blocklist: [...s.blocklist, cmd.pattern] });
      return this.say(ctx, text(`Added "${cmd.pattern}". Links, domains, wallets and e-mails matching it are treated as scams.`));
    }
    if (!s.blocklist.includes(cmd.pattern)) return this.say(ctx, text(`"${cmd.pattern}" is not on the blocklist.`));
    await this.save({ ...s, blocklist: s.blocklist.filter((p) => p !== cmd.pattern) });
    return this.say(ctx, text(`Removed "${cmd.pattern}".`));
  }

  private async allowlist(ctx: CommandContext, cmd: Extract<Command, { name: "allowlist" }>, s: ChatSettings): Promise<void> {
    const d = this.deps.dialect;
    if (cmd.action === "list") {
      return this.say(
        ctx,
        text(`Approved domains: ${s.allowlist.domains.join(", ") || "none"}`),
        text(`Approved users: ${s.allowlist.users.join(", ") || "none"}`),
        note("Approved users' links are still checked (accounts get stolen); they are never banned automatically, and skip anti-impersonation alerts."),
      );
    }
    let entry: string;
    if (cmd.kind === "domain") {
      const p = parseEntity(cmd.value);
      const host = p.ok ? hostOf(p.entity) : null;
      if (!p.ok || host === null) return this.say(ctx, text(`"${cmd.value}" is not a domain. Usage: ${commandSyntax(d, "allowlist")}`));
      entry = host;
    } else {
      const target = await this.resolveUserEntry(ctx, cmd.value);
      if (target === null) return this.say(ctx, text(`"${cmd.value}" is not a username or user id.`));
      entry = target;
    }
    const key = cmd.kind === "domain" ? "domains" : "users";
    const current = s.allowlist[key];
    if (cmd.action === "remove") {
      if (!current.includes(entry)) return this.say(ctx, text(`${entry} is not on the allowlist.`));
      await this.save({ ...s, allowlist: { ...s.allowlist, [key]: current.filter((x) => x !== entry) } });
      return this.say(ctx, text(`Removed ${entry} from the allowlist.`));
    }
    if (current.includes(entry)) return this.say(ctx, text(`${entry} is already approved.`));
    if (current.length >= LIMITS.allowlistEntries) return this.say(ctx, text(`The allowlist is full (${LIMITS.allowlistEntries} entries).`));
    await this.save({ ...s, allowlist: { ...s.allowlist, [key]: [...current, entry] } });
    await this.monitor.log(s, { action: `allowlisted ${cmd.kind} ${entry}`, policy: s.policy, chatId: ctx.chatId, user: ctx.sender });
    return this.say(
      ctx,
      text(cmd.kind === "domain" ? `Approved ${entry} and its subdomains.` : `Approved ${entry}. Their links are still checked, but they are never banned automatically.`),
    );
  }

  /** Users are kept as `id:<id>` when the id is known, else `@username`. */
  private async resolveUserEntry(ctx: CommandContext, value: string): Promise<string | null> {
    const v = value.trim();
    if (/^\d{1,20}$/u.test(v)) return `id:${v}`;
    const m = /^@?([a-z]\w{2,63})$/iu.exec(v);
    if (!m) return null;
    const username = (m[1] as string).toLowerCase();
    const seen = await this.deps.members.findByUsername(ctx.chatId, username);
    return seen ? `id:${seen.id}` : `@${username}`;
  }

  /**
   * A purchase as a settings change, for `PaymentLedger.record` to apply in the transaction that
   * records the payment: `tier` for `days` days from now, or from the end of a running purchase
   * of the same tier (paying again before the period is over extends it rather than losing the rest).
   */
  purchaseGrant(chatId: string, tier: Exclude<PlanTier, "free">, days: number, by: string): PlanGrant {
    const now = this.deps.clock.now();
    return (current) => {
      const s = current ?? defaultSettings(chatId, this.deps.platform, now);
      const runningUntil = s.plan.source === "stars" && s.plan.tier === tier && s.plan.until !== null ? Date.parse(s.plan.until) : Number.NaN;
      const from = runningUntil > now.getTime() ? runningUntil : now.getTime();
      return { ...s, plan: { tier, source: "stars", boundBy: by, until: new Date(from + days * 86_400_000).toISOString() }, updatedAt: now.toISOString() };
    };
  }

  /** After a purchase was recorded and granted (`purchaseGrant`): logs the upgrade and answers the settings in force. */
  async planPurchased(chatId: string): Promise<ChatSettings> {
    const s = await this.settingsFor(chatId);
    await this.monitor.log(s, { action: `plan upgraded: ${s.plan.tier} until ${s.plan.until?.slice(0, 10) ?? "further notice"}`, policy: s.policy, chatId, user: null });
    return s;
  }

  /** Ends a purchased plan early (refund). A plan bound by API key is left alone. */
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

function describe(u: ChatUser): string {
  return `${u.name}${u.username ? ` (@${u.username})` : ""} [id ${u.id}]`;
}
