import type { UserRef } from "./chat-port.js";
import { compileGlob } from "./glob.js";
import { REPORT_CATEGORIES, type ReportCategory, type ReportFeedback } from "./ports.js";
import { LIMITS, POLICIES, type Policy, type PolicyLevel } from "./settings.js";

/**
 * One command model for every platform. Each platform spells commands its own way (its
 * "dialect"); `parseCommand` turns any spelling into a `Command`, or into a usage reply that
 * says what was wrong and shows an example, so users learn the syntax from the bot itself.
 */
export type Dialect = "telegram" | "discord" | "slack" | "whatsapp";

export type Command =
  | { readonly name: "check"; readonly entity: string }
  | { readonly name: "report"; readonly entity: string; readonly category: ReportCategory; readonly feedback?: ReportFeedback }
  | { readonly name: "status" | "protect" | "monitor" | "unmonitor" | "audit" | "settings" | "start" | "refund" }
  /** Without a level: the policy for everything flagged; with one, for findings of that level (the other keeps the base policy). */
  | { readonly name: "policy"; readonly policy: Policy; readonly level?: PolicyLevel }
  | { readonly name: "alerts"; readonly destination: { readonly kind: "here" } | { readonly kind: "me" } | { readonly kind: "chat"; readonly chatId: string } }
  | { readonly name: "antiraid"; readonly action: "on" }
  | { readonly name: "antiraid"; readonly action: "off" }
  | { readonly name: "antiraid"; readonly action: "set"; readonly joins: number; readonly minutes: number; readonly lockdownMinutes?: number }
  | { readonly name: "welcome"; readonly mode: "on" | "off" }
  | { readonly name: "welcome"; readonly mode: "set"; readonly text: string }
  | { readonly name: "learn"; readonly action: "start"; readonly days: number }
  | { readonly name: "learn"; readonly action: "status" | "stop" }
  | { readonly name: "connect"; readonly apiKey: string }
  | { readonly name: "verify" | "banuser"; readonly user: UserRef | null }
  | { readonly name: "blocklist"; readonly action: "add" | "remove"; readonly pattern: string }
  | { readonly name: "blocklist"; readonly action: "clear" }
  | { readonly name: "blocklist"; readonly action: "list" }
  | { readonly name: "allowlist"; readonly action: "add" | "remove"; readonly kind: "user" | "domain"; readonly value: string }
  | { readonly name: "allowlist"; readonly action: "list" }
  | { readonly name: "setlog"; readonly channel: string | null }
  | { readonly name: "subscribe"; readonly plan: "starter" | "pro" }
  | { readonly name: "support"; readonly topic: "general" | "payments"; readonly text: string }
  | { readonly name: "admin_add"; readonly phone: string };

export type CommandName = Command["name"];

export const COMMAND_NAMES: readonly CommandName[] = [
  "check", "report", "status", "protect", "monitor", "unmonitor", "policy", "alerts", "antiraid", "welcome", "learn",
  "connect", "audit", "verify", "banuser", "blocklist", "allowlist", "setlog", "settings", "subscribe", "support",
  "start", "refund", "admin_add",
];

/** Commands only group admins may run (SPEC platform-1 table). */
export const ADMIN_COMMANDS: ReadonlySet<CommandName> = new Set<CommandName>([
  "protect", "monitor", "unmonitor", "policy", "alerts", "antiraid", "welcome", "learn", "connect", "audit", "verify",
  "banuser", "blocklist", "allowlist", "setlog", "settings", "admin_add",
]);

export type ParseResult =
  | { readonly ok: true; readonly command: Command }
  /** A known command with bad arguments: `usage` explains. */
  | { readonly ok: false; readonly name: CommandName; readonly usage: string }
  /** Looks like a command, but not one of ours (or addressed to another bot). */
  | { readonly ok: false; readonly name: null; readonly addressedToUs: boolean; readonly raw: string };

/** Per-command argument syntax and an example, rendered in the caller's dialect. */
const SYNTAX: Readonly<Record<CommandName, readonly [args: string, example: string, purpose: string]>> = {
  check: ["<entity>", "paypa1.com", "check a URL, domain, wallet, e-mail or phone"],
  report: ["<entity> [category]", "paypa1.com phishing", "report a suspected scam (or a false_positive)"],
  status: ["", "", "monitoring stats and queue depth"],
  protect: ["", "", "start monitoring with the default policy"],
  monitor: ["", "", "start monitoring"],
  unmonitor: ["", "", "stop monitoring"],
  policy: ["<notify|delete|ban> [high|critical]", "delete high", "set the action policy (for one risk level)"],
  alerts: ["<here|me|chat_id>", "me", "set where alerts are sent"],
  antiraid: ["<joins> <minutes> [lockdown_minutes] | on | off", "10 1", "set anti-raid thresholds"],
  welcome: ["on | off | set <text>", "set Welcome {name}! Admins never DM first.", "configure welcome messages"],
  learn: ["[days] | status | stop", "7", "observe before enforcing, then suggest an allowlist"],
  connect: ["<api_key>", "svc_live_…", "bind this group to a paid plan"],
  audit: ["", "", "scan members for admin impersonation"],
  verify: ["<user>", "@alice", "check whether a user is a real admin"],
  banuser: ["<user>", "@alice_support", "ban a suspected impersonator"],
  blocklist: ["add|remove <pattern> | clear | list", "add *.top", "manage blocklist patterns (* and ? only)"],
  allowlist: ["user|domain <value> | remove user|domain <value> | list", "domain example.org", "manage approved users and domains"],
  setlog: ["<channel> | off", "-1001234567890", "set the audit log channel"],
  settings: ["", "", "show all settings of the group"],
  subscribe: ["[starter|pro]", "starter", "upgrade the plan"],
  support: ["<issue>", "the bot deleted my message by mistake", "create a support ticket"],
  start: ["", "", "bot info and list of commands"],
  refund: ["", "", "refund your latest in-app purchase"],
  admin_add: ["<phone>", "+14155550100", "add an admin"],
};

export function commandSyntax(dialect: Dialect, name: CommandName): string {
  const [args] = SYNTAX[name];
  return `${spell(dialect, name)}${args ? ` ${args}` : ""}`;
}

export function commandPurpose(name: CommandName): string {
  return SYNTAX[name][2];
}

/** How a dialect spells a command name. */
export function spell(dialect: Dialect, name: CommandName): string {
  if (dialect === "whatsapp") return name === "admin_add" ? "!svc admin add" : `!svc ${name}`;
  if (dialect === "slack") return `/svc-${name}`;
  if (dialect === "discord" && name === "check") return "/checkwithsvc";
  return `/${name}`;
}

function usage(dialect: Dialect, name: CommandName, problem: string): ParseResult {
  const [, example] = SYNTAX[name];
  const ex = example ? `\nExample: ${spell(dialect, name)} ${example}` : "";
  return { ok: false, name, usage: `${problem}\nUsage: ${commandSyntax(dialect, name)}${ex}` };
}

const ALIASES: Readonly<Record<string, CommandName>> = {
  checkwithsvc: "check",
  help: "start",
  paysupport: "support",
  "admin add": "admin_add",
};

const isWordChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;

interface RawCommand {
  readonly word: string;
  readonly mention: string | null;
  readonly rest: string;
}

/** `/word[@mention] rest` read by hand: no regular expression runs over user input. */
function readSlash(text: string, start: number): RawCommand | null {
  let i = start;
  while (i < text.length && i - start < 64 && isWordChar(text.charCodeAt(i))) i++;
  if (i === start) return null;
  const word = text.slice(start, i).toLowerCase();
  let mention: string | null = null;
  if (text.charCodeAt(i) === 0x40) {
    const m = ++i;
    while (i < text.length && i - m < 64 && isWordChar(text.charCodeAt(i))) i++;
    mention = text.slice(m, i).toLowerCase();
  }
  if (i < text.length && !/\s/u.test(text[i] as string)) return null;
  return { word, mention, rest: text.slice(i).trim() };
}

export interface ParseOptions {
  readonly dialect: Dialect;
  /** The bot's own username (Telegram): `/check@other_bot` is not for us. */
  readonly botUsername?: string;
}

/** Returns null when the text is not a command at all (ordinary chat). */
export function parseCommand(input: string, options: ParseOptions): ParseResult | null {
  const text = input.trimStart();
  const { dialect } = options;
  let raw: RawCommand | null = null;
  if (text.startsWith("!svc")) {
    const rest = text.slice(4);
    if (rest.length > 0 && !/\s/u.test(rest[0] as string)) return null;
    const words = rest.trim();
    const sp = words.search(/\s/u);
    const word = (sp < 0 ? words : words.slice(0, sp)).toLowerCase();
    let after = sp < 0 ? "" : words.slice(sp).trim();
    let w = word;
    if (word === "admin" && after.toLowerCase().startsWith("add")) {
      w = "admin add";
      after = after.slice(3).trim();
    }
    raw = { word: w === "" ? "start" : w, mention: null, rest: after };
  } else if (text.startsWith("/")) {
    raw = readSlash(text, 1);
    if (!raw) return null;
    if (raw.word.startsWith("svc-")) raw = { ...raw, word: raw.word.slice(4) };
  } else {
    return null;
  }
  const bot = options.botUsername?.toLowerCase();
  const addressedToUs = raw.mention === null || raw.mention === bot;
  const name = ALIASES[raw.word] ?? (COMMAND_NAMES.includes(raw.word as CommandName) && raw.word !== "admin_add" ? (raw.word as CommandName) : null);
  if (name === null || !addressedToUs) return { ok: false, name: null, addressedToUs, raw: raw.word };
  return buildCommand(dialect, name, raw.word, raw.rest);
}

const tokens = (s: string): string[] => s.split(/\s+/u).filter((t) => t.length > 0);

const USERNAME_RE = /^@?([a-z]\w{2,63})$/i;
/** A user id; negative ids are chats posting as themselves (Telegram channels). */
const ID_RE = /^-?\d{1,20}$/;
const DISCORD_MENTION_RE = /^<@!?(\d{1,20})>$/;
const CHAT_ID_RE = /^(?:-?\d{3,20}|@[A-Za-z]\w{3,63}|[A-Z][A-Z0-9]{5,20})$/;

export function parseUserRef(s: string): UserRef | null {
  const t = s.trim();
  const mention = DISCORD_MENTION_RE.exec(t);
  if (mention) return { kind: "id", id: mention[1] as string };
  if (ID_RE.test(t)) return { kind: "id", id: t };
  const u = USERNAME_RE.exec(t);
  return u ? { kind: "username", username: (u[1] as string).toLowerCase() } : null;
}

const FEEDBACK: Readonly<Record<string, ReportFeedback>> = {
  false_positive: "false_positive", "false-positive": "false_positive", fp: "false_positive", safe: "false_positive",
  false_negative: "false_negative", "false-negative": "false_negative",
};

function buildCommand(dialect: Dialect, name: CommandName, word: string, rest: string): ParseResult {
  const args = tokens(rest);
  const a0 = args[0]?.toLowerCase();
  const ok = (command: Command): ParseResult => ({ ok: true, command });
  switch (name) {
    case "check":
      if (!rest) return usage(dialect, name, "Tell me what to check.");
      return ok({ name, entity: rest.slice(0, 2048) });
    case "report": {
      if (args.length === 0) return usage(dialect, name, "Tell me what to report.");
      const last = (args.at(-1) as string).toLowerCase();
      if (args.length > 1 && FEEDBACK[last]) {
        return ok({ name, entity: args.slice(0, -1).join(" "), category: "other", feedback: FEEDBACK[last] });
      }
      if (args.length > 1 && (REPORT_CATEGORIES as readonly string[]).includes(last)) {
        return ok({ name, entity: args.slice(0, -1).join(" "), category: last as ReportCategory });
      }
      if (args.length > 1 && args.length === 2 && !/\d/u.test(last)) {
        return usage(dialect, name, `"${args[1]}" is not a category. Categories: ${REPORT_CATEGORIES.join(", ")}, or false_positive.`);
      }
      return ok({ name, entity: rest, category: "scam" });
    }
    case "policy":
      if (!a0 || !(POLICIES as readonly string[]).includes(a0)) return usage(dialect, name, a0 ? `"${args[0]}" is not a policy.` : "Which policy?");
      if (args.length > 2) return usage(dialect, name, "One policy and at most one risk level.");
      if (args[1] !== undefined) {
        const level = args[1].toLowerCase();
        if (level !== "high" && level !== "critical") return usage(dialect, name, `"${args[1]}" is not a risk level (high or critical).`);
        return ok({ name, policy: a0 as Policy, level });
      }
      return ok({ name, policy: a0 as Policy });
    case "alerts":
      if (a0 === "here") return ok({ name, destination: { kind: "here" } });
      if (a0 === "me") return ok({ name, destination: { kind: "me" } });
      if (args[0] && CHAT_ID_RE.test(args[0])) return ok({ name, destination: { kind: "chat", chatId: args[0] } });
      return usage(dialect, name, a0 ? `"${args[0]}" is not here, me or a chat id.` : "Where should alerts go?");
    case "antiraid": {
      if (a0 === "on") return ok({ name, action: "on" });
      if (a0 === "off") return ok({ name, action: "off" });
      const n = args.map((x) => (/^\d{1,6}$/u.test(x) ? Number(x) : Number.NaN));
      const [joins, minutes, lock] = n;
      if (args.length < 2 || args.length > 3 || n.some((x) => Number.isNaN(x))) return usage(dialect, name, "Give the number of joins and the number of minutes.");
      if ((joins as number) < 2 || (joins as number) > LIMITS.antiRaidMaxJoins) return usage(dialect, name, `Joins must be between 2 and ${LIMITS.antiRaidMaxJoins}.`);
      if ((minutes as number) < 1 || (minutes as number) > LIMITS.antiRaidMaxMinutes) return usage(dialect, name, `Minutes must be between 1 and ${LIMITS.antiRaidMaxMinutes}.`);
      if (lock !== undefined && (lock < 1 || lock > 10_080)) return usage(dialect, name, "The lockdown lasts between 1 and 10080 minutes (a week).");
      return ok(lock === undefined ? { name, action: "set", joins: joins as number, minutes: minutes as number } : { name, action: "set", joins: joins as number, minutes: minutes as number, lockdownMinutes: lock });
    }
    case "welcome": {
      if (a0 === "on" || a0 === "off") return ok({ name, mode: a0 });
      if (a0 === "set") {
        const text = rest.slice(rest.toLowerCase().indexOf("set") + 3).trim();
        if (!text) return usage(dialect, name, "Give the welcome text after set.");
        if (text.length > LIMITS.welcomeLength) return usage(dialect, name, `The welcome text is at most ${LIMITS.welcomeLength} characters.`);
        return ok({ name, mode: "set", text });
      }
      return usage(dialect, name, "Say on, off, or set followed by the text.");
    }
    case "learn": {
      if (!a0) return ok({ name, action: "start", days: 7 });
      if (a0 === "status" || a0 === "report") return ok({ name, action: "status" });
      if (a0 === "stop" || a0 === "end") return ok({ name, action: "stop" });
      const days = /^\d{1,3}$/u.test(a0) ? Number(a0) : Number.NaN;
      if (!(days >= 1 && days <= LIMITS.learnMaxDays)) return usage(dialect, name, `Days must be a whole number from 1 to ${LIMITS.learnMaxDays}.`);
      return ok({ name, action: "start", days });
    }
    case "connect":
      if (args.length !== 1) return usage(dialect, name, "Give exactly one API key.");
      return ok({ name, apiKey: args[0] as string });
    case "verify":
    case "banuser": {
      // No argument: the platform may supply the user from a replied-to message.
      if (args.length === 0) return ok({ name, user: null });
      const user = parseUserRef(args[0] as string);
      if (!user || args.length > 1) return usage(dialect, name, `"${rest}" is not a username or user id.`);
      return ok({ name, user });
    }
    case "blocklist": {
      if (!a0 || a0 === "list") return ok({ name, action: "list" });
      if (a0 === "clear") return ok({ name, action: "clear" });
      if (a0 !== "add" && a0 !== "remove") return usage(dialect, name, `"${args[0]}" is not add, remove, clear or list.`);
      if (args.length !== 2) return usage(dialect, name, "Give one pattern (no spaces).");
      const g = compileGlob(args[1] as string);
      if (!g.ok) return usage(dialect, name, `That pattern cannot be used: ${g.reason}.`);
      return ok({ name, action: a0, pattern: g.glob.source });
    }
    case "allowlist": {
      if (!a0 || a0 === "list") return ok({ name, action: "list" });
      const remove = a0 === "remove";
      const kind = (remove ? args[1] : a0)?.toLowerCase();
      const value = remove ? args[2] : args[1];
      if (kind !== "user" && kind !== "domain") return usage(dialect, name, "Say user or domain.");
      if (!value || args.length !== (remove ? 3 : 2)) return usage(dialect, name, `Give one ${kind}.`);
      return ok({ name, action: remove ? "remove" : "add", kind, value });
    }
    case "setlog":
      if (a0 === "off" || a0 === "none") return ok({ name, channel: null });
      if (args.length === 1 && (a0 === "here" || CHAT_ID_RE.test(args[0] as string))) return ok({ name, channel: args[0] as string });
      return usage(dialect, name, a0 ? `"${args[0]}" is not a channel id or @channel.` : "Which channel?");
    case "subscribe":
      if (!a0) return ok({ name, plan: "starter" });
      if (a0 === "starter" || a0 === "pro") return ok({ name, plan: a0 });
      return usage(dialect, name, `"${args[0]}" is not a plan: starter or pro.`);
    case "support": {
      const topic = word === "paysupport" ? "payments" : "general";
      if (!rest && topic === "general") return usage(dialect, name, "Describe the problem after the command.");
      if (rest.length > LIMITS.supportLength) return usage(dialect, name, `Please keep it under ${LIMITS.supportLength} characters.`);
      return ok({ name, topic, text: rest });
    }
    case "admin_add":
      if (args.length !== 1) return usage(dialect, name, "Give one phone number in international format.");
      return ok({ name, phone: args[0] as string });
    default:
      return ok({ name } as Command);
  }
}
