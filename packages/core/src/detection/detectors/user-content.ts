import type { Entity } from "../../entities/types.js";
import type { ImpersonationIndex, TokenEntry } from "../impersonation/build-index.js";
import type { PlatformReading } from "../platform-paths.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";

/** A path segment this long without a separator is an identifier (a file id, an IPFS CID), not words. */
const IDENTIFIER_LENGTH = 20;
/** A brand named on a user's page without any lure word: the page may be a fan's or a review. */
const BRAND_ALONE_STRENGTH = 0.5;
/** Keywords this weak ("service", "event") do not make a lure beside a brand. */
const MIN_LURE_WEIGHT = 0.3;

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The words of a path: its segments decoded, lower-cased and cut at anything but letters; identifiers skipped. */
export function pathWords(path: string): string[] {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    const s = decode(segment).toLowerCase();
    if (s.length >= IDENTIFIER_LENGTH && !/[^a-z0-9]/.test(s)) continue;
    for (const w of s.split(/[^a-z]+/)) if (w.length > 0) out.push(w);
  }
  return out;
}

interface Lure {
  readonly word: string;
  readonly wallet: "object" | "action" | null;
}

function lureOf(word: string, ref: ReferenceData): Lure | null {
  const object = ref.walletLures.objects.includes(word);
  const action = !object && ref.walletLures.actions.includes(word);
  const k = ref.keywords.get(word);
  if (!object && !action && !(k && k.weight >= MIN_LURE_WEIGHT)) return null;
  return { word, wallet: object ? "object" : action ? "action" : null };
}

/** A brand token as a whole word, or glued to a lure word ("paypalverify", "verifypaypal"). */
function brandIn(word: string, index: ImpersonationIndex, ref: ReferenceData): { token: TokenEntry; lure: string | null } | null {
  const id = index.tokenIds.get(word);
  if (id !== undefined) return { token: index.tokens[id] as TokenEntry, lure: null };
  for (let cut = 4; cut <= word.length - 3; cut++) {
    const head = word.slice(0, cut);
    const tail = word.slice(cut);
    const h = index.tokenIds.get(head);
    if (h !== undefined && !(index.tokens[h] as TokenEntry).short && lureOf(tail, ref)) return { token: index.tokens[h] as TokenEntry, lure: tail };
    const t = index.tokenIds.get(tail);
    if (t !== undefined && tail.length >= 4 && !(index.tokens[t] as TokenEntry).short && lureOf(head, ref)) return { token: index.tokens[t] as TokenEntry, lure: head };
  }
  return null;
}

/**
 * A user's page on a platform is judged on its own address, since the platform's allowlisting
 * does not cover it: a brand's name in the path beside lure words (`paypal-verify-account`,
 * `metamask-seed-recovery.html`) is impersonation, as combosquatting is in a host name; the
 * wallet-drainer pair (`wallet-connect.html`) is a drainer front. The platform's own brand named
 * alone on its own platform says nothing.
 */
export function userContentFindings(entity: Entity, reading: Extract<PlatformReading, { kind: "user_content" }>, ref: ReferenceData, index: ImpersonationIndex): Finding[] {
  const out: Finding[] = [];
  const a = entity.attributes;
  const registered = str(a.registered_domain) ?? "";
  if (reading.listed) {
    out.push({
      code: "url.user_content",
      family: "intel",
      message: `This is ${reading.what} on ${reading.platform}: anyone can publish there, so the platform's good name does not cover it, and only its address could be judged`,
      evidence: { platform: reading.platform, what: reading.what },
      source: source(ref, "platform-paths"),
    });
  }
  const words = pathWords(str(a.path) ?? "");
  if (words.length === 0) return out;
  const lures: string[] = [];
  let walletObject: string | null = null;
  let walletAction: string | null = null;
  let brand: { token: TokenEntry; word: string } | null = null;
  for (const w of words) {
    const lure = lureOf(w, ref);
    if (lure) {
      if (!lures.includes(w)) lures.push(w);
      if (lure.wallet === "object") walletObject ??= w;
      else if (lure.wallet === "action") walletAction ??= w;
      continue;
    }
    if (brand || w.length < 3) continue;
    const b = brandIn(w, index, ref);
    if (!b) continue;
    if (b.lure && !lures.includes(b.lure)) lures.push(b.lure);
    brand = { token: b.token, word: w };
  }
  if (brand) {
    const b = brand.token.brand;
    const ownPlatform = b.officialDomains.includes(registered) || b.userContentDomains.includes(registered);
    const strength = lures.length > 0 ? 1 : brand.token.short || ownPlatform ? 0 : BRAND_ALONE_STRENGTH;
    if (strength > 0) {
      out.push({
        code: "url.content_brand",
        family: "impersonation",
        message: lures.length > 0
          ? `A page published on ${reading.platform} names ${b.name} beside “${lures.join("”, “")}”; ${b.name}'s own site is ${b.officialDomains[0] ?? "elsewhere"}`
          : `A page published on ${reading.platform} uses the name ${b.name}, but is not ${b.name}'s`,
        evidence: { brand: b.id, word: brand.word, lures: [...lures], platform: reading.platform, target: b.officialDomains[0] ?? null },
        source: index.source,
        strength,
      });
    }
  }
  if (walletObject && walletAction) {
    out.push({
      code: "url.content_wallet_lure",
      family: "impersonation",
      message: `A page published on ${reading.platform} asks to “${walletAction}” a “${walletObject}”, the naming of wallet-drainer pages`,
      evidence: { object: walletObject, action: walletAction, platform: reading.platform },
      source: source(ref, "wallet-lures"),
    });
  }
  return out;
}
