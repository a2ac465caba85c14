import type { Brand } from "@svc/intel";
import type { Entity } from "../../entities/types.js";
import type { Finding } from "../types.js";
import { HANDLE_DECORATIONS } from "./affixes.js";
import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import { describeEdit } from "./describe.js";
import { finding } from "./findings.js";
import { fuzzyTokenMatch } from "./label-match.js";

/** Platforms that show handles with an "@" (entities/social.ts writes them the same way). */
const AT_PLATFORMS: ReadonlySet<string> = new Set(["x", "telegram", "tiktok", "youtube"]);
/** Glued decorations shorter than this do not count next to an ordinary-word brand ("thesky"). */
const MIN_GLUED_ON_SHORT = 6;
const DECORATION_STRENGTH = { strong: 0.9, weak: 0.7, digits: 0.6 } as const;
/** The brand's own name on a platform where we list other official accounts for it. */
const UNLISTED_NAME_STRENGTH = 0.5;

const DECORATION_WORDS = [...HANDLE_DECORATIONS.keys()].sort((a, b) => b.length - a.length);

interface Decorated {
  /** The handle without decorations and separators ("binance" for "the_binance_support247"). */
  readonly core: string;
  readonly decorations: readonly string[];
  /** Some decoration was glued on without a separator. */
  readonly glued: boolean;
  readonly strongest: "strong" | "weak" | "digits" | null;
}

const isDigits = (s: string): boolean => /^\d+$/.test(s);

/** Where a run of digits at the end of `s` starts (`s.length` when there is none). */
function trailingDigits(s: string): number {
  let i = s.length;
  while (i > 0 && s.charCodeAt(i - 1) >= 0x30 && s.charCodeAt(i - 1) <= 0x39) i--;
  return i;
}

/** Peels decorations off both ends: separated ones first ("binance_support"), then glued ones ("binancesupport"). */
function undecorate(handle: string): Decorated {
  const pieces = handle.split(/[._-]+/).filter((p) => p.length > 0);
  const decorations: string[] = [];
  const isDecoration = (p: string): boolean => HANDLE_DECORATIONS.has(p) || isDigits(p);
  while (pieces.length > 1 && isDecoration(pieces[0] as string)) decorations.push(pieces.shift() as string);
  while (pieces.length > 1 && isDecoration(pieces[pieces.length - 1] as string)) decorations.push(pieces.pop() as string);
  let core = pieces.join("");
  let glued = false;
  for (let changed = true; changed; ) {
    changed = false;
    const digitsFrom = trailingDigits(core);
    if (digitsFrom < core.length && digitsFrom >= 4) {
      decorations.push(core.slice(digitsFrom));
      core = core.slice(0, digitsFrom);
      changed = glued = true;
    }
    for (const w of DECORATION_WORDS) {
      if (core.length - w.length < 4) continue;
      if (core.endsWith(w)) core = core.slice(0, core.length - w.length);
      else if (core.startsWith(w)) core = core.slice(w.length);
      else continue;
      decorations.push(w);
      changed = glued = true;
      break;
    }
  }
  const kinds = decorations.map((w) => (isDigits(w) ? "digits" : HANDLE_DECORATIONS.get(w)?.strong ? "strong" : "weak"));
  const strongest = (["strong", "weak", "digits"] as const).find((k) => kinds.includes(k)) ?? null;
  return { core, decorations, glued, strongest };
}

const show = (platform: string, handle: string): string => (AT_PLATFORMS.has(platform) ? `@${handle}` : handle);

interface Official {
  /** The brand's official handles on this platform, or on any platform when none is listed here. */
  readonly handles: string[];
  /** What the finding points the reader to: the official account here, else one elsewhere, else the brand's site. */
  readonly target: string;
  /** The same, as the end of a sentence. */
  readonly text: string;
}

function officialOf(brand: Brand, platform: string): Official {
  const here = brand.officialHandles[platform as keyof Brand["officialHandles"]] ?? [];
  if (here[0] !== undefined) {
    const target = show(platform, here[0]);
    return { handles: [...here], target, text: `the official ${platform} account is ${target}` };
  }
  const elsewhere = Object.entries(brand.officialHandles).flatMap(([p, hs]) => hs.map((h) => ({ p, h })));
  const first = elsewhere[0];
  if (first) {
    const target = `${first.p}:${show(first.p, first.h)}`;
    return { handles: [...new Set(elsewhere.map((x) => x.h))], target, text: `we know no official ${platform} account of ${brand.name}; on ${first.p} it is ${show(first.p, first.h)}` };
  }
  const site = brand.officialDomains[0] ?? brand.name;
  return { handles: [], target: site, text: `we know no official account of ${brand.name}; its site is ${site}` };
}

/** The brand a core names exactly: a token, or an official handle on any platform. */
function brandNamed(core: string, index: ImpersonationIndex): { brand: Brand; short: boolean } | null {
  const id = index.tokenIds.get(core);
  if (id !== undefined) {
    const t = index.tokens[id] as TokenEntry;
    return { brand: t.brand, short: t.short };
  }
  const owners = index.handlesAnyPlatform.get(core);
  return owners?.[0] ? { brand: owners[0], short: core.length < 5 } : null;
}

/**
 * Social accounts that pass for a brand's: an official handle is reported as such (strength 0,
 * so the caller can allowlist it); a look-alike of an official handle or brand token
 * (`x:@b1nance`) is `social.handle_lookalike`; the brand name dressed up as its support or
 * official account (`x:@binance_support`, `telegram:@binance_help`) is
 * `social.impersonation_decoration`.
 */
export function detectHandleImpersonation(entity: Entity, index: ImpersonationIndex): Finding[] {
  if (entity.type !== "social_account") return [];
  const platform = typeof entity.attributes.platform === "string" ? entity.attributes.platform : "";
  const handle = typeof entity.attributes.handle === "string" ? entity.attributes.handle.toLowerCase() : "";
  if (!platform || !handle) return [];
  const src = index.source;

  const owners = index.handlesByPlatform.get(platform)?.get(handle);
  if (owners?.[0]) {
    const b = owners[0];
    return [finding("social.official_handle", "social", `${show(platform, handle)} is ${b.name}'s official ${platform} account`, { brand: b.id, official: officialOf(b, platform).handles, target: show(platform, handle), platform, handle }, src, 0)];
  }

  const d = undecorate(handle);
  const named = brandNamed(d.core, index);
  if (named && d.decorations.length > 0) {
    const weakGlue = d.glued && d.decorations.every((w) => w.length < MIN_GLUED_ON_SHORT);
    if (!(named.short && (weakGlue || d.strongest !== "strong"))) {
      const official = officialOf(named.brand, platform);
      const decoration = d.decorations.find((w) => HANDLE_DECORATIONS.get(w)?.strong) ?? d.decorations.find((w) => !isDigits(w)) ?? "digits";
      const poses = d.strongest === "strong"
        ? `Poses as ${named.brand.name}'s “${decoration}” account`
        : `Uses the name ${named.brand.name} dressed up with “${d.decorations.join("”, “")}”`;
      return [finding(
        "social.impersonation_decoration",
        "social",
        `${poses}; ${official.text}`,
        { brand: named.brand.id, official: official.handles, decoration, decorations: [...d.decorations], target: official.target, platform, handle },
        src,
        DECORATION_STRENGTH[d.strongest ?? "weak"],
      )];
    }
  }
  if (named && d.decorations.length === 0) {
    // The brand's very name, but not the account we list for this platform: maybe theirs, maybe a squatter.
    const listed = named.brand.officialHandles[platform as keyof Brand["officialHandles"]] ?? [];
    if (listed.length === 0 || named.short) return [];
    const target = show(platform, listed[0] as string);
    return [finding("social.handle_lookalike", "social", `Uses the name ${named.brand.name}, but ${named.brand.name}'s official ${platform} account is ${target}`, { brand: named.brand.id, official: [...listed], target, technique: "unlisted-name", distance: 0, platform, handle }, src, UNLISTED_NAME_STRENGTH)];
  }

  // The whole handle first: in "paypa1" the "1" is a look-alike "l", not a decoration.
  const compact = handle.replace(/[._-]/g, "");
  const m = lookalike(compact, index) ?? (d.core !== compact ? lookalike(d.core, index) : null);
  if (!m) return [];
  const official = officialOf(m.brand, platform);
  const dressedWith = m.seen === compact ? [] : [...d.decorations];
  const dressed = dressedWith.length > 0 ? `, dressed up with “${dressedWith.join("”, “")}”` : "";
  return [finding(
    "social.handle_lookalike",
    "social",
    `Looks like the name ${m.brand.name} (${m.detail}${dressed}); ${official.text}`,
    { brand: m.brand.id, official: official.handles, target: official.target, technique: m.technique, distance: m.distance, decorations: dressedWith, platform, handle },
    src,
    m.strength * (dressedWith.length > 0 ? 0.95 : 1),
  )];
}

/** A misspelling of a brand token (permutations, skeleton, edit distance) or of an official handle. */
function lookalike(core: string, index: ImpersonationIndex): { brand: Brand; technique: string; distance: number; strength: number; detail: string; seen: string } | null {
  const t = fuzzyTokenMatch(core, index);
  if (t) {
    const entry = index.tokens[t.id] as TokenEntry;
    return { brand: entry.brand, technique: t.technique, distance: t.distance, strength: t.strength, detail: describeEdit(entry.token, core, t.technique, t.distance), seen: core };
  }
  if (index.commonWords.has(core)) return null;
  const h = index.nearHandles.nearest(core);
  if (!h) return null;
  const official = index.handleList[h.id];
  if (!official) return null;
  const compact = official.handle.replace(/[._-]/g, "");
  return { brand: official.brand, technique: "edit-distance", distance: h.distance, strength: h.distance === 1 ? 0.9 : 0.75, detail: describeEdit(compact, core, "edit-distance", h.distance), seen: core };
}
