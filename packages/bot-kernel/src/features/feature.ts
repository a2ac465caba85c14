import type { ChatPort, ChatUser, MessageRef } from "../chat-port.js";
import type { Command, CommandName, Dialect } from "../commands.js";
import type { Capabilities, IncomingMessage, Monitor, ScanOutcome } from "../monitoring.js";
import type { Clock } from "../ports.js";
import type { Block, Reply } from "../reply.js";
import type { ChatSettings } from "../settings.js";
import type { VerdictCache } from "../verdict-cache.js";

/**
 * The kernel is a stack of feature modules (scan, moderation, anti-raid, settings, learn,
 * impersonation audit, reports, plans, support), composed per platform the way grammY
 * composes `Composer`s: each module names the commands it answers and the events it hooks,
 * and asks for its own small ports at construction. The kernel owns only what they share:
 * settings, the audit log, admin checks and the scanner (`KernelServices`).
 */

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
  /** Only the bot saw the command's arguments (Discord slash-command options, Slack slash commands): nothing to take down. */
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
  /** The rights before this change, when the platform tells (admins are told once about a right lost). */
  readonly was?: Omit<BotRights, "was">;
}

/** One audit-log entry (entity ids and reasons, never message text). */
export type LogEntry = Parameters<Monitor["log"]>[1];

/** What every feature module may use; a module's own ports come through its factory. */
export interface KernelServices {
  /** Platform name recorded with reports and tickets ("telegram"). */
  readonly platform: string;
  readonly dialect: Dialect;
  readonly clock: Clock;
  readonly chat: ChatPort;
  readonly capabilities: Capabilities;
  /** Extraction, screening (through the verdict cache), decisions, enforcement and the log. */
  readonly monitor: Monitor;
  readonly cache: VerdictCache;
  readonly botName: string;
  settingsFor(chatId: string): Promise<ChatSettings>;
  /** Saves with a fresh `updatedAt`; answers what was saved. */
  save(s: ChatSettings): Promise<ChatSettings>;
  log(s: ChatSettings, e: LogEntry): Promise<void>;
  /** Copies an alert to the chat's alert destination (a DM, another chat), best effort. */
  alertAdmins(s: ChatSettings, alert: Reply): Promise<void>;
  isAdmin(chatId: string, userId: string): Promise<boolean>;
  /** Whether a composed module answers this command (help and settings list only what is offered). */
  offers(name: CommandName): boolean;
}

/** A command being run: its context, the chat's settings in force, and how to answer. */
export interface CommandRun {
  readonly ctx: CommandContext;
  readonly settings: ChatSettings;
  readonly now: Date;
  respond(r: Reply): Promise<void>;
  say(...blocks: Block[]): Promise<void>;
}

/** The parsed command of one name (also for variants that share a shape, like verify and banuser). */
export type CommandOf<N extends CommandName> = Command extends infer C ? (C extends { readonly name: infer M } ? (N extends M ? C & { readonly name: N } : never) : never) : never;

export type CommandHandlers = {
  readonly [N in CommandName]?: (run: CommandRun, cmd: CommandOf<N>) => Promise<void>;
};

/** Passed along the join hooks in order, so a later module knows what an earlier one saw. */
export interface JoinState {
  /** Joins are bunching up inside the anti-raid window (a raid may be building). */
  bunched: boolean;
}

/**
 * A button press: `arg` is what follows the action's name in the button's id (`allow:example.org`).
 * Answers the short notice shown to whoever pressed it.
 */
export type ActionHandler = (ctx: CommandContext, arg: string) => Promise<string>;

/** Button ids are `<name>:<arg>` and at most this many bytes (Telegram's callback_data limit). */
export const MAX_ACTION_BYTES = 64;

/** A button id, or null when it would be too long for every platform to carry. */
export function actionId(name: string, arg: string): string | null {
  const id = `${name}:${arg}`;
  return new TextEncoder().encode(id).length <= MAX_ACTION_BYTES ? id : null;
}

export interface FeatureModule {
  readonly name: string;
  readonly commands?: CommandHandlers;
  /** Buttons this module answers, by action name (undo a ban, approve a domain, appeal). */
  readonly actions?: Readonly<Record<string, ActionHandler>>;
  /** The kernel's timer (`BotKernel.tick`): work that waits on nobody's message (delivering support answers). */
  tick?(now: Date): Promise<void>;
  /** Time-based endings (a lockdown, a learning period): the settings after them. */
  expire?(s: ChatSettings, now: Date): Promise<ChatSettings>;
  /** A member seen for the first time or under a new name (not an admin's own message). */
  onMember?(s: ChatSettings, user: ChatUser, when: "join" | "message"): Promise<void>;
  /** A group message; the first module that answers an outcome handles it. */
  onMessage?(msg: IncomingMessage, s: ChatSettings): Promise<ScanOutcome | null>;
  /** A direct message (personal scanning); the first module that answers true handles it. */
  onPrivateMessage?(msg: PrivateMessage): Promise<boolean>;
  /** A member joined; "stop" ends the join handling (a lockdown muted them). */
  onJoin?(e: JoinEvent, s: ChatSettings, state: JoinState): Promise<"stop" | void>;
  /** The bot's own rights in a chat changed. */
  onBotMembership?(chatId: string, rights: BotRights, s: ChatSettings): Promise<void>;
}

export function describeUser(u: ChatUser): string {
  return `${u.name}${u.username ? ` (@${u.username})` : ""} [id ${u.id}]`;
}
