import type { Finding } from "../types.js";
import { BRAND_AFFIXES } from "./affixes.js";
import { AFFIX_KEY_LENGTH, headKey, tailKey } from "./affix-key.js";
import type { ImpersonationIndex, KeywordEntry, TokenEntry } from "./build-index.js";
import { finding } from "./findings.js";
import { labelParts, type HostView } from "./host-view.js";
import { fuzzyTokenMatch, tokenIdOf } from "./label-match.js";
import { hashString } from "../string-filter.js";
import { HYPHENATED_COMBO_STRENGTH, SHORT_TOKEN_FACTOR } from "./policy.js";

interface BrandHit {
  readonly entry: TokenEntry;
  /** Index of the host label it is in. */
  readonly labelIndex: number;
  /** The part of the label that names the brand ("binanceus"). */
  readonly part: string;
  /** A lure word glued to the brand name in the same part ("paypalsecure"). */
  readonly gluedKeyword: KeywordEntry | null;
  /** How the part imitates the token when it is not spelled exactly ("paypa1"); null when exact. */
  readonly technique: string | null;
}

const NONE: readonly number[] = [];
/** Brand tokens this long are found at the start or end of a part with anything glued to them. */
const GLUED_NAME_MIN = 7;

interface KeywordHit {
  readonly entry: KeywordEntry;
  readonly labelIndex: number;
}

/** A risky keyword that is a part, or (five letters or more) its start or end: "login", "securelogin". */
function keywordIn(part: string, index: ImpersonationIndex): KeywordEntry | null {
  const exact = index.keywords.get(part);
  if (exact) return exact;
  if (part.length <= AFFIX_KEY_LENGTH) return null;
  let best: KeywordEntry | null = null;
  for (const k of index.keywordsByHead.get(headKey(part)) ?? []) {
    if (k.keyword.length < part.length && part.startsWith(k.keyword) && (!best || k.weight > best.weight)) best = k;
  }
  for (const k of index.keywordsByTail.get(tailKey(part)) ?? []) {
    if (k.keyword.length < part.length && part.endsWith(k.keyword) && (!best || k.weight > best.weight)) best = k;
  }
  return best;
}

/** A token of `ids` leading (`atStart`) or ending `part`, with a lure or product word or nothing much glued to it. */
function gluedBrand(part: string, labelIndex: number, ids: readonly number[], atStart: boolean, index: ImpersonationIndex): BrandHit | null {
  for (const tid of ids) {
    const entry = index.tokens[tid] as TokenEntry;
    const n = entry.token.length;
    if (n > part.length - 2 || !(atStart ? part.startsWith(entry.token) : part.endsWith(entry.token))) continue;
    const rest = atStart ? part.slice(n) : part.slice(0, part.length - n);
    const kw = keywordIn(rest, index);
    // A long distinctive name leads or ends the part whatever is glued to it ("coinbasecanada").
    if (kw || BRAND_AFFIXES.has(rest) || n >= GLUED_NAME_MIN) return { entry, labelIndex, part, gluedKeyword: kw, technique: null };
  }
  return null;
}

/**
 * The brand a part names: exactly ("binance", and short tokens such as "ups" only so), or as
 * a distinctive token at its start or end followed or preceded by a product word or a lure
 * word ("binanceus", "paypalsecure"). Never a token buried in another word ("pineapple").
 */
function brandIn(part: string, labelIndex: number, index: ImpersonationIndex, fuzzy: boolean): BrandHit | null {
  const h = hashString(part);
  const id = tokenIdOf(part, index, h);
  if (id !== undefined) return { entry: index.tokens[id] as TokenEntry, labelIndex, part, gluedKeyword: null, technique: null };
  if (part.length > AFFIX_KEY_LENGTH + 2) {
    const hit = gluedBrand(part, labelIndex, index.tokensByHead.get(headKey(part)) ?? NONE, true, index) ?? gluedBrand(part, labelIndex, index.tokensByTail.get(tailKey(part)) ?? NONE, false, index);
    if (hit) return hit;
  }
  if (fuzzy && part.length >= 5) {
    // Sub-domain labels are cheap for an attacker and often random: permutations and skeletons only, no edit distance.
    const m = fuzzyTokenMatch(part, index, false, h);
    if (m) return { entry: index.tokens[m.id] as TokenEntry, labelIndex, part, gluedKeyword: null, technique: m.technique };
  }
  return null;
}

/**
 * Brand names used as words of a host: with a lure word anywhere in the host (combosquatting:
 * `paypal-secure.xyz`, `coinbase.verify-account.net`), alone in an unofficial registrable
 * name (`metamask-io.xyz`), or as a sub-domain of an unofficial domain (`metamask.evil.com`).
 * Short tokens are ordinary words ("apple", "delta"): they count only whole, and only next to a
 * lure word in the same label, or in the registrable name.
 */
export function brandPartFindings(view: HostView, index: ImpersonationIndex, registrableIsUserContent: boolean): Finding[] {
  const brands: BrandHit[] = [];
  for (let i = 0; i <= view.registrableIndex; i++) {
    const label = view.labels[i] as string;
    if (!partsRead(view, i, label, registrableIsUserContent)) continue;
    for (const part of labelParts(label)) {
      const b = brandIn(part, i, index, i !== view.registrableIndex);
      if (b) brands.push(b);
    }
  }
  // Lure words matter only beside a brand, and most names hold none: they are looked for after.
  if (brands.length === 0) return [];
  // The same parts in the same order, so the keywords are listed as if found in the first pass.
  // brands holds a part's hit at the cursor: hits were pushed in this order, and a part of the
  // same label with the same text as a later hit would have been a hit itself.
  const keywords: KeywordHit[] = [];
  let cursor = 0;
  for (let i = 0; i <= view.registrableIndex; i++) {
    const label = view.labels[i] as string;
    if (!partsRead(view, i, label, registrableIsUserContent)) continue;
    for (const part of labelParts(label)) {
      const hit = brands[cursor];
      const b = hit !== undefined && hit.labelIndex === i && hit.part === part ? hit : null;
      if (b) cursor++;
      const k = b ? b.gluedKeyword : keywordIn(part, index);
      if (k) keywords.push({ entry: k, labelIndex: i });
    }
  }
  // A top-level domain that is itself a lure word (.claims, .gifts, .support) is read with the name.
  const tldLure = view.suffix.includes(".") ? null : keywordIn(view.suffix, index);
  if (tldLure) keywords.push({ entry: tldLure, labelIndex: view.registrableIndex });
  const out: Finding[] = [];
  const combo = combosquatting(view, index, brands, keywords);
  if (combo) out.push(combo);
  const inName = (combo ? null : wordCombo(view, index, brands)) ?? brandInName(view, index, brands);
  if (inName) out.push(inName);
  const inSub = brandInSubdomain(view, index, brands);
  if (inSub) out.push(inSub);
  return out;
}

/** Whether the parts of label `i` are read for brands and lure words. */
function partsRead(view: HostView, i: number, label: string, registrableIsUserContent: boolean): boolean {
  if (label === "www" || label.startsWith("xn--")) return false;
  // The registrable name of a brand's own hosting (t.me, paypal.me) is the brand's; its sub-domains are anyone's.
  return !(i === view.registrableIndex && registrableIsUserContent);
}

function combosquatting(view: HostView, index: ImpersonationIndex, brands: readonly BrandHit[], keywords: readonly KeywordHit[]): Finding | null {
  let best: { b: BrandHit; k: KeywordHit; strength: number } | null = null;
  for (const b of brands) {
    if (b.technique !== null) continue; // a misspelt brand next to a lure word is the lookalike check's finding
    for (const k of keywords) {
      // An ordinary word ("target", "delta") needs its lure word in the same label, or must be the registrable name.
      if (b.entry.short && k.labelIndex !== b.labelIndex && b.labelIndex !== view.registrableIndex) continue;
      // A brand beside any lure word is near-certain combosquatting; the word's weight tips it.
      const strength = Math.min(1, 0.8 + 0.5 * k.entry.weight) * (b.entry.short ? SHORT_TOKEN_FACTOR : 1);
      if (!best || strength > best.strength || (strength === best.strength && k.entry.weight > best.k.entry.weight)) best = { b, k, strength };
    }
  }
  if (!best) return null;
  const { b, k } = best;
  const all = [...new Set(keywords.map((x) => x.entry.keyword))];
  return finding(
    "domain.combosquatting",
    "impersonation",
    `Combines the name ${b.entry.brand.name} with “${k.entry.keyword}”, a typical lure; the real site is ${b.entry.target}`,
    { brand: b.entry.brand.id, target: b.entry.target, keyword: k.entry.keyword, keywords: all, token: b.entry.token, label: view.labels[b.labelIndex] as string },
    index.source,
    best.strength,
  );
}

/** The rest of a part after a brand's name at its start or end, when it is a product word ("metamaskonline" → "online"). */
function gluedAffix(part: string, token: string): string | null {
  const rest = part.startsWith(token) ? part.slice(token.length) : part.endsWith(token) ? part.slice(0, part.length - token.length) : null;
  return rest !== null && BRAND_AFFIXES.has(rest) ? rest : null;
}

/**
 * The brand's exact name beside another word in the registrable label: as one hyphen-separated
 * word ("binance-trade"), or glued to a word that makes it read as the brand's own site or app
 * ("metamaskonline", "polkastarterapp", "wwwbittrex").
 */
function wordCombo(view: HostView, index: ImpersonationIndex, brands: readonly BrandHit[]): Finding | null {
  if (view.privateSuffix) return null;
  let found: { b: BrandHit; words: string[] } | null = null;
  for (const b of brands) {
    if (b.labelIndex !== view.registrableIndex || b.entry.short || b.technique !== null) continue;
    if (b.part === b.entry.token && view.label.includes("-")) {
      const parts = labelParts(view.label);
      // Parts as written: "web3", not also the "web" cut out of it.
      const others = parts.filter((p, i) => p !== b.part && /[a-z]/.test(p) && !b.part.includes(p) && !parts.some((q, j) => j !== i && q.length > p.length && q.includes(p)));
      if (others.length > 0) found = { b, words: others };
    } else {
      const affix = gluedAffix(b.part, b.entry.token);
      if (affix) found = { b, words: [affix] };
    }
    if (found) break;
  }
  if (!found) return null;
  const { b, words } = found;
  return finding(
    "domain.combosquatting",
    "impersonation",
    `Combines the name ${b.entry.brand.name} with “${words.join("”, “")}” in ${view.registrable}, which is not one of its known domains; the real site is ${b.entry.target}`,
    { brand: b.entry.brand.id, target: b.entry.target, keyword: null, keywords: words, token: b.entry.token, label: view.label },
    index.source,
    HYPHENATED_COMBO_STRENGTH,
  );
}

function brandInName(view: HostView, index: ImpersonationIndex, brands: readonly BrandHit[]): Finding | null {
  const b = brands.find((h) => h.labelIndex === view.registrableIndex && !h.entry.short && h.technique === null);
  if (!b) return null;
  // The label is the brand's name and nothing else (not "binancetoday", where more is glued on).
  const whole = b.part === view.label && b.part === b.entry.token;
  // The whole name on another TLD is a tld-swap (lookalike check); on a hosting platform (github.io), or
  // on a TLD the brand uses ("appleid.com"), it is only the name in a domain that is not on our list.
  const sameSuffix = b.entry.brandSuffixes.has(view.suffix);
  if (whole && !view.privateSuffix && !sameSuffix) return null;
  const where = view.privateSuffix
    ? `on ${view.suffix}, where anyone can publish`
    : whole ? `in ${view.registrable}, which is not one of its known domains` : `in ${view.registrable}`;
  return finding(
    "domain.brand_in_name",
    "impersonation",
    `Uses the name ${b.entry.brand.name} ${where}; the real site is ${b.entry.target}`,
    { brand: b.entry.brand.id, target: b.entry.target, token: b.entry.token, label: view.label },
    index.source,
    1,
  );
}

function brandInSubdomain(view: HostView, index: ImpersonationIndex, brands: readonly BrandHit[]): Finding | null {
  const b = brands.find((h) => h.labelIndex < view.registrableIndex && !h.entry.short);
  if (!b) return null;
  const label = view.labels[b.labelIndex] as string;
  const how = b.technique ? ` (misspelt: “${b.part}”)` : "";
  return finding(
    "domain.brand_in_subdomain",
    "impersonation",
    `Puts the name ${b.entry.brand.name}${how} in front of ${view.registrable}, which is not ${b.entry.brand.name}'s; the real site is ${b.entry.target}`,
    { brand: b.entry.brand.id, target: b.entry.target, token: b.entry.token, label, technique: b.technique ?? "exact" },
    index.source,
    b.technique ? 0.9 : 1,
  );
}
