import type { ChatUser } from "./chat-port.js";
import { editDistance } from "./edit-distance.js";
import { skeleton, skeletons } from "./skeleton.js";

/**
 * Admin impersonation: scammers join a group under an admin's name with a few letters swapped
 * for look-alikes (Cyrillic а for Latin a), or add "Support" to it, then DM members. Names are
 * compared as confusable skeletons, so look-alikes compare equal, and with a small edit
 * distance, so one inserted or dropped letter is caught too. Display names and usernames are
 * compared crosswise (a member's username against an admin's display name, and so on).
 */
export type ImpersonationTechnique = "identical_name" | "lookalike" | "decorated" | "similar" | "official_title";

export interface ImpersonationFinding {
  readonly member: ChatUser;
  /** The admin imitated; null for a generic official-sounding name. */
  readonly admin: ChatUser | null;
  readonly technique: ImpersonationTechnique;
  /** 0..1: how sure the match is. */
  readonly score: number;
  readonly reason: string;
}

/** Words impersonators add to a real admin's name; compared as skeletons like everything else. */
const DECORATIONS = [
  "admin", "administrator", "support", "official", "help", "helpdesk", "team", "mod", "moderator", "service",
  "care", "desk", "staff", "verify", "verification", "mediator", "manager", "ceo", "founder", "dev", "real",
  "the", "tech", "technical", "customer", "bot", "group", "channel", "info",
];
/** A name made only of these sounds official even without an admin's name in it. */
const TITLES = ["admin", "administrator", "support", "helpdesk", "mod", "moderator", "official", "mediator", "staff", "verification"];
const DECORATION_SKELETONS = new Set(DECORATIONS.map((w) => skeleton(w)));
const TITLE_SKELETONS = new Set(TITLES.map((w) => skeleton(w)));

interface Prepared {
  readonly user: ChatUser;
  /** Compact skeletons of the display name and the username (distinct, non-empty). */
  readonly keys: readonly string[];
}

const compact = (s: string): string => s.replaceAll(" ", "");

function keysOf(u: ChatUser): { name: string; keys: string[] } {
  const names = skeletons(u.name);
  const keys = new Set<string>();
  for (const n of names) if (compact(n).length > 0) keys.add(compact(n));
  if (u.username) for (const un of skeletons(u.username)) if (compact(un).length > 0) keys.add(compact(un));
  return { name: names[0] as string, keys: [...keys] };
}

export function prepareAdmins(admins: readonly ChatUser[]): readonly Prepared[] {
  return admins.filter((a) => !a.isBot).map((a) => ({ user: a, keys: keysOf(a).keys }));
}

/** Skeleton words with the decorations removed, compacted: "Alice | Support" → "alice". */
function undecorated(skel: string): string {
  return skel.split(" ").filter((w) => !DECORATION_SKELETONS.has(w)).join("");
}

const allowedDistance = (len: number): number => (len >= 10 ? 2 : len >= 5 ? 1 : 0);

/** The strongest impersonation finding for one member, or null. Admins themselves are never findings. */
export function checkMember(member: ChatUser, admins: readonly Prepared[]): ImpersonationFinding | null {
  if (admins.some((a) => a.user.id === member.id)) return null;
  const { name, keys } = keysOf(member);
  const memberWords = [...skeletons(member.name), ...(member.username ? skeletons(member.username.replaceAll("_", " ")) : [])].filter((s) => s.length > 0);
  const found: ImpersonationFinding[] = [];
  const consider = (f: ImpersonationFinding): void => void found.push(f);
  for (const admin of admins) {
    const who = admin.user.username ? `${admin.user.name} (@${admin.user.username})` : admin.user.name;
    for (const ak of admin.keys) {
      if (ak.length < 3) continue;
      for (const mk of keys) {
        if (mk === ak) {
          const identical = member.name === admin.user.name || (member.username !== undefined && member.username === admin.user.username);
          consider({
            member, admin: admin.user,
            technique: identical ? "identical_name" : "lookalike",
            score: identical ? 1 : 0.95,
            reason: identical ? `uses the same name as admin ${who}` : `name looks identical to admin ${who} (look-alike characters)`,
          });
          continue;
        }
        const max = allowedDistance(ak.length);
        if (max > 0) {
          const d = editDistance(mk, ak, max);
          if (d <= max) consider({ member, admin: admin.user, technique: "similar", score: 0.8 - 0.1 * d, reason: `name is ${d} character${d === 1 ? "" : "s"} away from admin ${who}` });
        }
      }
      if (ak.length >= 4) {
        for (const words of memberWords) {
          const bare = undecorated(words);
          if (bare.length > 0 && bare !== compact(words) && bare === ak) {
            consider({ member, admin: admin.user, technique: "decorated", score: 0.9, reason: `admin ${who}'s name with an official-sounding word added` });
          }
        }
      }
    }
  }
  // The first of equal scores wins: admins are listed owner first.
  const best = found.reduce<ImpersonationFinding | null>((b, f) => (b === null || f.score > b.score ? f : b), null);
  if (best) return best;
  const words = name.split(" ").filter((w) => w.length > 0);
  if (words.length > 0 && words.every((w) => DECORATION_SKELETONS.has(w)) && words.some((w) => TITLE_SKELETONS.has(w))) {
    return { member, admin: null, technique: "official_title", score: 0.6, reason: `calls itself "${member.name}" without being an admin` };
  }
  return null;
}

/** Every seen member that imitates an admin, strongest first. */
export function auditMembers(members: readonly ChatUser[], admins: readonly ChatUser[], exemptIds: ReadonlySet<string> = new Set()): ImpersonationFinding[] {
  const prepared = prepareAdmins(admins);
  const out: ImpersonationFinding[] = [];
  for (const m of members) {
    if (m.isBot || exemptIds.has(m.id)) continue;
    const f = checkMember(m, prepared);
    if (f) out.push(f);
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Words a forwarded scam's sender uses to sound official (whole words, compared as skeletons). */
const OFFICIAL_WORDS = [...TITLES, "service", "care", "helpline", "security", "team"];
const OFFICIAL_SKELETONS = new Map(OFFICIAL_WORDS.map((w) => [skeleton(w), w]));

/**
 * Whether a sender's display name or username calls itself support, an admin or a service
 * ("Binance Support", "Customer Service", @wallet_helpdesk): the word it used, or null. Words
 * are split on spaces, punctuation, underscores and case changes, and compared as skeletons,
 * so "Ѕupport" with a Cyrillic Ѕ counts too. For forwarded messages, where nobody is an admin.
 */
export function officialSounding(u: { readonly name: string; readonly username?: string }): string | null {
  for (const raw of [u.name, u.username ?? ""]) {
    const words = raw
      .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1);
    for (const w of words) {
      const hit = OFFICIAL_SKELETONS.get(skeleton(w));
      if (hit) return hit;
    }
  }
  return null;
}
