import { entityError, parsed, type TypedParse } from "./types.js";

/**
 * Social accounts are written `platform:handle`. Each platform has its own handle rules;
 * the canonical form lower-cases handles (all of these platforms treat them case-insensitively)
 * and writes the `@` only where the platform itself shows one, so `x:@Name`, `twitter:name`
 * and https://x.com/name all mean `x:@name`.
 */
export interface PlatformRule {
  readonly id: string;
  readonly at: boolean;
  readonly pattern: RegExp;
  readonly describe: string;
  /** A rule the pattern cannot say simply (kept out of the regex so it stays linear). */
  readonly extra?: (handle: string) => boolean;
  /** Path words on the platform's site that are not accounts (x.com/home, github.com/settings). */
  readonly reserved?: ReadonlySet<string>;
  /** Host names of profile URLs, and how to read the handle from the path segments. */
  readonly hosts: readonly string[];
  readonly fromPath: (segments: readonly string[]) => string | null;
}

const first = (segs: readonly string[]): string | null => segs[0] ?? null;
const afterPrefix = (...prefixes: string[]) => (segs: readonly string[]): string | null =>
  segs.length >= 2 && prefixes.includes((segs[0] as string).toLowerCase()) ? (segs[1] as string) : null;
const atPrefixed = (segs: readonly string[]): string | null => {
  const s = segs[0];
  return s && s.startsWith("@") ? s.slice(1) : null;
};

const noStrayDots = (h: string): boolean => !h.startsWith(".") && !h.endsWith(".") && !h.includes("..");
const words = (...w: string[]): ReadonlySet<string> => new Set(w);

export const PLATFORMS: readonly PlatformRule[] = [
  {
    id: "x", at: true, pattern: /^[a-z0-9_]{1,15}$/, describe: "1–15 letters, digits or underscores",
    hosts: ["x.com", "twitter.com", "mobile.twitter.com", "mobile.x.com"],
    fromPath: first,
    reserved: words("home", "explore", "search", "i", "intent", "share", "settings", "messages", "notifications", "login", "signup", "tos", "privacy", "hashtag", "compose"),
  },
  {
    id: "instagram", at: false, pattern: /^[\w.]{1,30}$/, extra: noStrayDots, describe: "1–30 letters, digits, dots or underscores",
    hosts: ["instagram.com"], fromPath: first,
    reserved: words("p", "reel", "reels", "explore", "accounts", "stories", "direct", "about", "legal", "tv"),
  },
  {
    id: "telegram", at: true, pattern: /^[a-z](?!.*__)[a-z0-9_]{3,30}[a-z0-9]$/, describe: "5–32 letters, digits or underscores, starting with a letter",
    hosts: ["t.me", "telegram.me", "telegram.dog"], fromPath: first,
    reserved: words("joinchat", "addstickers", "share", "proxy", "socks", "c", "s", "iv", "addlist", "login", "setlanguage", "addtheme", "boost", "contact", "invoice", "m"),
  },
  {
    id: "tiktok", at: true, pattern: /^(?!.*\.$)[a-z0-9._]{2,24}$/, describe: "2–24 letters, digits, dots or underscores",
    hosts: ["tiktok.com"], fromPath: atPrefixed,
  },
  {
    id: "youtube", at: true, pattern: /^[a-z0-9._-]{3,30}$/, describe: "3–30 letters, digits, dots, dashes or underscores",
    hosts: ["youtube.com", "m.youtube.com"], fromPath: atPrefixed,
  },
  {
    id: "facebook", at: false, pattern: /^[a-z0-9.]{1,50}$/, describe: "letters, digits or dots",
    hosts: ["facebook.com", "fb.com", "m.facebook.com"], fromPath: first,
    reserved: words("groups", "events", "pages", "watch", "marketplace", "gaming", "login", "help", "policies", "share", "sharer", "profile.php", "photo", "photos", "story.php", "permalink.php", "reel", "dialog", "plugins", "legal", "privacy", "settings", "notifications", "messages", "friends", "hashtag", "business", "ads"),
  },
  {
    id: "discord", at: false, pattern: /^(?!.*\.\.)[a-z0-9_.]{2,32}(?:#\d{4})?$/, describe: "2–32 letters, digits, dots or underscores",
    hosts: [], fromPath: () => null,
  },
  {
    id: "github", at: false, pattern: /^[a-z0-9](?!.*--)[a-z0-9-]{0,37}[a-z0-9]$|^[a-z0-9]$/, describe: "1–39 letters, digits or single hyphens",
    hosts: ["github.com"], fromPath: first,
    reserved: words("about", "apps", "blog", "collections", "contact", "customer-stories", "enterprise", "explore", "features", "issues", "join", "login", "marketplace", "new", "notifications", "orgs", "pricing", "pulls", "search", "security", "settings", "sponsors", "topics", "trending", "site", "team", "codespaces", "organizations", "readme"),
  },
  {
    id: "reddit", at: false, pattern: /^[a-z0-9_-]{3,20}$/, describe: "3–20 letters, digits, dashes or underscores",
    hosts: ["reddit.com", "old.reddit.com", "new.reddit.com", "np.reddit.com"], fromPath: afterPrefix("u", "user"),
  },
  {
    id: "linkedin", at: false, pattern: /^[a-z0-9-]{3,100}$/, describe: "3–100 letters, digits or hyphens",
    hosts: ["linkedin.com"], fromPath: afterPrefix("in", "company"),
  },
];

const ALIASES: Readonly<Record<string, string>> = { twitter: "x", tg: "telegram", ig: "instagram", yt: "youtube", fb: "facebook", gh: "github" };
const BY_ID: ReadonlyMap<string, PlatformRule> = new Map(PLATFORMS.map((p) => [p.id, p]));
const BY_HOST: ReadonlyMap<string, PlatformRule> = new Map(PLATFORMS.flatMap((p) => p.hosts.flatMap((h) => [[h, p] as const, [`www.${h}`, p] as const])));

export const platformFor = (name: string): PlatformRule | undefined => BY_ID.get(ALIASES[name] ?? name);

/** The platform prefix of `platform:handle`, or null when the string has none we know. */
export function socialPrefix(s: string): PlatformRule | null {
  const colon = s.indexOf(":");
  if (colon <= 0 || colon > 10) return null;
  return platformFor(s.slice(0, colon).toLowerCase()) ?? null;
}

export function canonicalHandle(rule: PlatformRule, rawHandle: string): { handle: string } | { problem: string } {
  let h = rawHandle.trim();
  if (rule.id === "reddit") h = h.replace(/^\/?u(?:ser)?\//i, "");
  if (rule.id === "linkedin") h = h.replace(/^\/?(?:in|company)\//i, "");
  if (h.startsWith("@")) h = h.slice(1);
  h = h.toLowerCase();
  if (!rule.pattern.test(h) || (rule.extra && !rule.extra(h))) return { problem: `A ${rule.id} handle has ${rule.describe}; "${rawHandle.trim()}" does not fit.` };
  if (rule.reserved?.has(h)) return { problem: `"${h}" is a ${rule.id} page, not an account.` };
  return { handle: h };
}

export const socialValue = (rule: PlatformRule, handle: string): string => `${rule.id}:${rule.at ? "@" : ""}${handle}`;

export function parseSocialAccount(s: string): TypedParse {
  const rule = socialPrefix(s);
  if (!rule) {
    return entityError(
      "entity.invalid",
      `A social account is written platform:handle, e.g. x:@name or instagram:name. Platforms: ${PLATFORMS.map((p) => p.id).join(", ")} (twitter: is an alias of x:).`,
      "social_account",
    );
  }
  const c = canonicalHandle(rule, s.slice(s.indexOf(":") + 1));
  if ("problem" in c) return entityError("entity.invalid", c.problem, "social_account");
  return parsed(socialValue(rule, c.handle), { platform: rule.id, handle: c.handle });
}

/** The account a profile URL points at (`https://x.com/name` → `x:@name`), or null. */
export function socialAccountOfUrl(host: string, pathname: string): string | null {
  const rule = BY_HOST.get(host);
  if (!rule) return null;
  const segments = pathname.split("/").filter((p) => p.length > 0);
  let raw: string | null;
  try {
    raw = rule.fromPath(segments.map((p) => decodeURIComponent(p)));
  } catch {
    return null;
  }
  if (!raw) return null;
  const c = canonicalHandle(rule, raw);
  return "handle" in c ? socialValue(rule, c.handle) : null;
}
