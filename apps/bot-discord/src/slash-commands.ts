import { REPORT_CATEGORIES, LIMITS } from "@svc/bot-kernel";
import { ApplicationCommandOptionType, PermissionFlagsBits, type RESTPostAPIChatInputApplicationCommandsJSONBody } from "discord.js";

/** Admin commands are hidden from members who lack Manage Server (admins can widen this per server). */
const ADMIN_ONLY = String(PermissionFlagsBits.ManageGuild);

/**
 * The Discord commands of SPEC.md, as registered with Discord. Servers only (`contexts: [0]`):
 * every command acts on the server it is used in. Discord checks option types and choices
 * before the bot sees them; the kernel still parses what arrives.
 */
export const SLASH_COMMANDS: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[] = [
  {
    name: "checkwithsvc",
    description: "Check a link, domain, wallet, e-mail or phone number for scam signals",
    contexts: [0],
    options: [{ type: ApplicationCommandOptionType.String, name: "entity", description: "What to check, e.g. paypa1.com", required: true, max_length: 2048 }],
  },
  { name: "monitor", description: "Start scanning messages in this server", contexts: [0], default_member_permissions: ADMIN_ONLY },
  { name: "unmonitor", description: "Stop scanning messages in this server", contexts: [0], default_member_permissions: ADMIN_ONLY },
  {
    name: "policy",
    description: "What to do with risky messages",
    contexts: [0],
    default_member_permissions: ADMIN_ONLY,
    options: [
      { type: ApplicationCommandOptionType.Subcommand, name: "notify", description: "Warn under risky messages" },
      { type: ApplicationCommandOptionType.Subcommand, name: "delete", description: "Delete risky messages and say why" },
      { type: ApplicationCommandOptionType.Subcommand, name: "ban", description: "Delete risky messages and ban the sender" },
    ],
  },
  {
    name: "report",
    description: "Report a suspected scam (or a wrong verdict)",
    contexts: [0],
    options: [
      { type: ApplicationCommandOptionType.String, name: "entity", description: "The link, domain, wallet, e-mail or phone", required: true, max_length: 2048 },
      {
        type: ApplicationCommandOptionType.String,
        name: "reason",
        description: "What kind of scam, or false_positive to appeal a verdict",
        choices: [...REPORT_CATEGORIES, "false_positive"].map((c) => ({ name: c, value: c })),
      },
    ],
  },
  {
    name: "connect",
    description: "Bind this server to a paid plan with an API key (only the bot sees it)",
    contexts: [0],
    default_member_permissions: ADMIN_ONLY,
    options: [{ type: ApplicationCommandOptionType.String, name: "api_key", description: "svc_live_…", required: true, max_length: 100 }],
  },
  { name: "audit", description: "Scan member names for admin and server impersonation", contexts: [0], default_member_permissions: ADMIN_ONLY },
  {
    name: "learn",
    description: "Observe this server before enforcing (learning mode)",
    contexts: [0],
    default_member_permissions: ADMIN_ONLY,
    options: [
      { type: ApplicationCommandOptionType.Integer, name: "days", description: "How long to observe (default 7)", min_value: 1, max_value: LIMITS.learnMaxDays },
      {
        type: ApplicationCommandOptionType.String,
        name: "action",
        description: "start (default), status or stop",
        choices: ["start", "status", "stop"].map((c) => ({ name: c, value: c })),
      },
    ],
  },
  // Beyond SPEC's list: the kernel's replies point admins at these (appeals, /verify, /banuser, allowlists).
  { name: "status", description: "Monitoring stats of this server", contexts: [0] },
  { name: "settings", description: "Show every svc setting of this server", contexts: [0], default_member_permissions: ADMIN_ONLY },
  { name: "help", description: "What svc does and its commands", contexts: [0] },
  ...(["verify", "banuser"] as const).map((name): RESTPostAPIChatInputApplicationCommandsJSONBody => ({
    name,
    description: name === "verify" ? "Check whether a member is a real admin of this server" : "Ban a suspected impersonator",
    contexts: [0],
    default_member_permissions: ADMIN_ONLY,
    options: [{ type: ApplicationCommandOptionType.User as const, name: "user", description: "The member", required: true }],
  })),
  ...(
    [
      ["allowlist", "Approved users and domains: domain example.org | user <id> | remove domain example.org | list"],
      ["blocklist", "Blocklist patterns: add *.top | remove *.top | clear | list"],
      ["antiraid", "Anti-raid: <joins> <minutes> [lockdown_minutes] | on | off"],
      ["alerts", "Where alerts go: here | me | <channel id>"],
    ] as const
  ).map(([name, description]): RESTPostAPIChatInputApplicationCommandsJSONBody => ({
    name,
    description,
    contexts: [0],
    default_member_permissions: ADMIN_ONLY,
    options: [{ type: ApplicationCommandOptionType.String as const, name: "arguments", description: "As in the command's description", max_length: 300 }],
  })),
  {
    name: "setlog",
    description: "Channel that receives the svc log of every action (leave empty to turn it off)",
    contexts: [0],
    default_member_permissions: ADMIN_ONLY,
    options: [{ type: ApplicationCommandOptionType.Channel, name: "channel", description: "The log channel", channel_types: [0, 5] }],
  },
];

/** What a slash command carries, read off the interaction. */
export interface SlashInput {
  readonly name: string;
  readonly subcommand: string | null;
  readonly options: Readonly<Record<string, string | number | boolean>>;
}

const oneToken = (v: unknown): string => String(v ?? "").trim().replace(/\s+/gu, " ");

/**
 * A slash command as the kernel's text command in the Discord dialect, so the one grammar (and
 * its usage messages) serves every platform. Null for a command that is not ours.
 */
export function toCommandText(input: SlashInput): string | null {
  const o = input.options;
  switch (input.name) {
    case "checkwithsvc":
      return `/checkwithsvc ${oneToken(o.entity)}`;
    case "monitor":
    case "unmonitor":
    case "audit":
      return `/${input.name}`;
    case "policy":
      return `/policy ${input.subcommand ?? oneToken(o.policy)}`;
    case "report":
      return `/report ${oneToken(o.entity)}${o.reason ? ` ${oneToken(o.reason)}` : ""}`;
    case "connect":
      return `/connect ${oneToken(o.api_key)}`;
    case "learn": {
      const action = o.action ? oneToken(o.action) : "start";
      return action === "start" ? `/learn${o.days !== undefined ? ` ${oneToken(o.days)}` : ""}` : `/learn ${action}`;
    }
    case "status":
    case "settings":
      return `/${input.name}`;
    case "help":
      return "/start";
    case "verify":
    case "banuser":
      return `/${input.name} ${oneToken(o.user)}`;
    case "allowlist":
    case "blocklist":
    case "antiraid":
    case "alerts":
      return `/${input.name}${o.arguments !== undefined ? ` ${oneToken(o.arguments)}` : ""}`;
    case "setlog":
      return `/setlog ${o.channel !== undefined ? oneToken(o.channel) : "off"}`;
    default:
      return null;
  }
}
