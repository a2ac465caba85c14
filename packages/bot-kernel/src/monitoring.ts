import { extractEntities, hostOf, parseEntity, type Extraction } from "@svc/core";
import { actionId } from "./features/feature.js";
import type { ChatPort, ChatUser, MessageRef } from "./chat-port.js";
import { compileGlob, firstMatch, type Glob } from "./glob.js";
import { decide, type Action, type Assessed, type Decision } from "./policy.js";
import { isVerdict, type Clock, type StatsStore } from "./ports.js";
import { defang } from "./render.js";
import { heading, list, note, text, type Button, type Reply } from "./reply.js";
import type { ChatSettings } from "./settings.js";
import type { VerdictCache } from "./verdict-cache.js";

export interface IncomingMessage {
  readonly ref: MessageRef;
  /** Null for anonymous posts (channel posts, anonymous admins). */
  readonly sender: ChatUser | null;
  /**
   * The text to scan: the message text or caption, with formatted links written as Markdown
   * `[text](url)` so a deceptive link label is visible to extraction. Read once, never stored.
   */
  readonly text: string;
  /** The platform already knows the sender speaks for the chat (anonymous admin). */
  readonly senderIsAdmin?: boolean;
}

/** What the platform can do at all (Slack and WhatsApp bots cannot delete others' messages). */
export interface Capabilities {
  readonly delete: boolean;
  readonly ban: boolean;
  readonly restrict: boolean;
}

export interface MonitorDeps {
  readonly chat: ChatPort;
  readonly cache: VerdictCache;
  readonly stats: StatsStore;
  readonly clock: Clock;
  readonly capabilities: Capabilities;
  readonly maxEntities: number;
  /** How users appeal, in the platform's own spelling: `/report <entity> false_positive`. */
  readonly appealCommand: (entity: string) => string;
  readonly isAdmin: (chatId: string, userId: string) => Promise<boolean>;
}

export interface Assessment {
  readonly extraction: Extraction;
  readonly assessed: readonly Assessed[];
}

export interface ScanOutcome {
  readonly entities: number;
  readonly decision: Decision;
  /** What was actually done (after platform refusals). */
  readonly performed: readonly string[];
}

const NONE: Decision = { action: "none", findings: [], softened: null };

/** Compiled blocklists, reused while a chat's list is unchanged. */
const globCache = new Map<string, readonly Glob[]>();
function globsFor(patterns: readonly string[]): readonly Glob[] {
  const key = patterns.join("\n");
  let g = globCache.get(key);
  if (!g) {
    g = patterns.flatMap((p) => {
      const r = compileGlob(p);
      return r.ok ? [r.glob] : [];
    });
    if (globCache.size > 1000) globCache.clear();
    globCache.set(key, g);
  }
  return g;
}

/** Attribute names the extractor sets when an entity's spelling was disguised. */
const DISGUISE = /obfuscated|defanged|hidden_characters|bidi_controls|ip_literal|punycode|^idn|_idn/u;

/**
 * Distinct entities a text can hold at most: the shortest entity takes several characters
 * and a separator, so a quarter of the length is a bound that reads every one of them.
 */
export const entityBound = (text: string): number => Math.max(20, Math.ceil(text.length / 4));

/** Approved domains match by whole labels: `example.org` approves `www.example.org`, never `evil-example.org`. */
export function domainAllowed(host: string | null, allowed: readonly string[]): boolean {
  if (host === null) return false;
  return allowed.some((d) => host === d || host.endsWith(`.${d}`));
}

export class Monitor {
  constructor(private readonly deps: MonitorDeps) {}

  /**
   * Extracts and screens, applying the chat's lists; touches no chat. Every distinct entity of
   * the message is read (bounded by its length); when there are more than `maxEntities`, the
   * riskiest-looking are screened first, so harmless padding in front never hides a lure.
   */
  async assess(text: string, settings: Pick<ChatSettings, "blocklist" | "allowlist">): Promise<Assessment> {
    const all = extractEntities(text, { maxEntities: entityBound(text) });
    const globs = globsFor(settings.blocklist);
    const extraction = all.entities.length <= this.deps.maxEntities ? all : { ...all, entities: this.riskiestFirst(all.entities, globs, settings).slice(0, this.deps.maxEntities), truncated: true };
    const assessed = await Promise.all(
      extraction.entities.map(async (x): Promise<Assessed> => {
        const e = x.entity;
        const host = hostOf(e);
        const blocked = firstMatch(globs, host && host !== e.value ? [e.value, host] : [e.value]);
        const allowlisted = domainAllowed(host, settings.allowlist.domains);
        const linkMismatch = x.link?.mismatch && x.link.text_host ? { shown: x.link.text_host } : null;
        const base = { entity: { type: e.type, value: e.value, id: e.id }, blockPattern: blocked?.source ?? null, allowlisted, linkMismatch };
        // A blocklisted entity is decided already; an approved one is not the engine's business.
        if (blocked || allowlisted) return { ...base, verdict: null, error: null };
        const outcome = await this.deps.cache.screen(e.id, e.value);
        return isVerdict(outcome) ? { ...base, verdict: outcome, error: null } : { ...base, verdict: null, error: outcome.error.code };
      }),
    );
    return { extraction, assessed };
  }

  /**
   * Orders entities by how risky they look before screening: blocklisted, deceptive link text,
   * disguised spelling (hidden characters, defanging), a cached risky verdict, not yet known,
   * and last what is allowlisted or cached as low risk. Stable within a rank.
   */
  private riskiestFirst(entities: Extraction["entities"], globs: readonly Glob[], settings: Pick<ChatSettings, "allowlist">): Extraction["entities"] {
    const rank = (x: Extraction["entities"][number]): number => {
      const e = x.entity;
      const host = hostOf(e);
      if (firstMatch(globs, host && host !== e.value ? [e.value, host] : [e.value])) return 0;
      if (x.link?.mismatch) return 1;
      if (domainAllowed(host, settings.allowlist.domains)) return 6;
      const cached = this.deps.cache.peek(e.id);
      if (cached && isVerdict(cached)) return cached.risk_level === "high" || cached.risk_level === "critical" ? 2 : cached.risk_level === "medium" ? 4 : 6;
      if (Object.entries(e.attributes).some(([k, v]) => DISGUISE.test(k) && v !== null && v !== false && !(Array.isArray(v) && v.length === 0))) return 3;
      return e.type === "phone" || e.type === "email" ? 5 : 4;
    };
    return entities
      .map((x, i) => ({ x, i, r: rank(x) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((y) => y.x);
  }

  /** Decides without acting (learn mode uses this to count what would have happened). */
  async decideFor(msg: IncomingMessage, settings: ChatSettings, a: Assessment): Promise<Decision> {
    if (a.assessed.length === 0) return NONE;
    const sender = msg.sender;
    const senderTrusted = sender !== null && isTrustedUser(sender, settings);
    const first = decide({ assessed: a.assessed, policy: settings.policy, ...(settings.policyByLevel ? { policyByLevel: settings.policyByLevel } : {}), senderTrusted, senderIsAdmin: false });
    if (first.action === "none" || first.action === "notify") return first;
    // Only now ask who the sender is: an admin lookup per flagged message, not per message.
    const senderIsAdmin = msg.senderIsAdmin === true || (sender !== null && (await this.deps.isAdmin(msg.ref.chatId, sender.id)));
    return senderIsAdmin ? decide({ assessed: a.assessed, policy: settings.policy, ...(settings.policyByLevel ? { policyByLevel: settings.policyByLevel } : {}), senderTrusted, senderIsAdmin }) : first;
  }

  async act(msg: IncomingMessage, settings: ChatSettings, decision: Decision): Promise<string[]> {
    const { chat, stats, capabilities } = this.deps;
    const chatId = msg.ref.chatId;
    const performed: string[] = [];
    const notes: string[] = [];
    let action: Action = decision.action;
    if (action === "ban" && (!capabilities.ban || msg.sender === null)) action = "delete";
    if (action === "delete" && !capabilities.delete) action = "notify";
    await stats.add(chatId, "flagged");
    if (action === "ban" && msg.sender) {
      if (await chat.ban(chatId, msg.sender.id)) {
        performed.push("banned");
        await stats.add(chatId, "bans");
      } else {
        notes.push("I could not ban the sender (I need the right to ban members).");
      }
    }
    let deleted = false;
    if (action === "delete" || action === "ban") {
      deleted = await chat.deleteMessage(msg.ref);
      if (deleted) {
        performed.push("deleted");
        await stats.add(chatId, "deletions");
      } else {
        notes.push("I could not delete the message (I need the right to delete messages).");
      }
    }
    const notice = this.notice(msg, decision, performed, notes);
    // A deleted message cannot be replied to; otherwise the warning sits right under the message.
    if (deleted) await chat.send(chatId, notice);
    else await chat.reply(msg.ref, notice);
    performed.push("warned");
    await stats.add(chatId, "warnings");
    if (settings.alerts.kind !== "here") {
      const dest = settings.alerts.kind === "me" ? settings.alerts.userId : settings.alerts.chatId;
      await bestEffort(chat.send(dest, { blocks: [heading(`🔔 Alert from chat ${chatId}`), ...notice.blocks] }));
    }
    await this.log(settings, {
      action: performed.filter((p) => p !== "warned").join(" + ") || "warned",
      policy: settings.policy,
      chatId,
      user: msg.sender,
      decision,
      notes,
    });
    return performed;
  }

  private notice(msg: IncomingMessage, d: Decision, performed: readonly string[], notes: readonly string[]): Reply {
    const who = msg.sender ? msg.sender.name : "This post";
    const title = performed.includes("banned")
      ? `🚫 ${who} was banned and the message removed`
      : performed.includes("deleted")
        ? `🛡 Removed a message from ${who}`
        : `⚠️ Careful: ${msg.sender ? `${who}'s message` : "this message"} looks risky`;
    const items = d.findings.map((f) => `${defang(f.entity.value)}: ${f.reason}`);
    // Defanged, so the appeal line does not turn the risky link back into a tappable one.
    const firstEntity = d.findings[0] ? defang(d.findings[0].entity.value) : "<entity>";
    return {
      buttons: noticeButtons(msg, d, performed),
      blocks: [
        heading(title),
        list(items),
        ...(d.softened ? [text(`Policy is ${d.softened.from}, but ${d.softened.why}.`)] : []),
        ...notes.map((n) => text(n)),
        note(`Wrong call? Appeal with ${this.deps.appealCommand(firstEntity)} and an admin can review. Automated risk indicator, not a guarantee.`),
      ],
    };
  }

  /** The audit log entry: what, why, who, and how to appeal. Entity ids only, never the message. */
  async log(
    settings: ChatSettings,
    e: { action: string; policy: string; chatId: string; user: ChatUser | null; decision?: Decision; notes?: readonly string[]; detail?: string },
  ): Promise<void> {
    if (!settings.logChannel) return;
    const lines = [
      `Action: ${e.action} (policy ${e.policy})`,
      `Chat: ${e.chatId}`,
      ...(e.user ? [`User: ${e.user.name}${e.user.username ? ` @${e.user.username}` : ""} (id ${e.user.id})`] : []),
      ...(e.decision?.findings.map((f) => `Entity (${f.entity.type}) ${defang(f.entity.value)}: ${f.reason}`) ?? []),
      ...(e.decision?.softened ? [`Softened from ${e.decision.softened.from}: ${e.decision.softened.why}`] : []),
      ...(e.detail ? [e.detail] : []),
      ...(e.notes ?? []),
      ...(e.decision?.findings[0] ? [`Appeal: ${this.deps.appealCommand(defang(e.decision.findings[0].entity.value))}`] : []),
      `Time: ${this.deps.clock.now().toISOString()}`,
    ];
    await bestEffort(this.deps.chat.send(settings.logChannel, { blocks: [heading("📋 svc log"), list(lines)] }));
  }
}

/**
 * Buttons under a warning: admins undo a ban or approve the domain in one tap; anyone reports
 * a false positive. Handled by the moderation and reports features (`BotKernel.onAction`).
 */
function noticeButtons(msg: IncomingMessage, d: Decision, performed: readonly string[]): Button[] {
  const out: Button[] = [];
  const first = d.findings[0]?.entity;
  const add = (label: string, name: string, arg: string): void => {
    const id = actionId(name, arg);
    if (id) out.push({ label, action: id });
  };
  if (performed.includes("banned") && msg.sender) add("↩️ Undo ban (admins)", "unban", msg.sender.id);
  if (first) {
    const parsed = parseEntity(first.value);
    const host = parsed.ok ? hostOf(parsed.entity) : null;
    if (host && first.type !== "wallet") add(`✅ Approve ${host} (admins)`, "allow", host);
    add("🙋 Not a scam? Report it", "fp", first.value);
  }
  return out;
}

/** Allowlisted users, by id or by username. */
export function isTrustedUser(u: ChatUser, s: Pick<ChatSettings, "allowlist">): boolean {
  return s.allowlist.users.some((x) => x === `id:${u.id}` || (u.username !== undefined && x === `@${u.username.toLowerCase()}`));
}

/**
 * Alerts and log entries go to other chats (a DM, a log channel) that may have blocked or
 * removed the bot since they were configured; that must not undo the action itself.
 */
export async function bestEffort(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch {
    // The action stands; the chat it was reported to is unreachable.
  }
}
