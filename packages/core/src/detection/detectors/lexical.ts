import { hostOf } from "../../entities/host.js";
import type { Entity } from "../../entities/types.js";
import { source, type ReferenceData } from "../reference.js";
import { hashFinish, hashStep, StringFilter } from "../string-filter.js";
import type { Finding } from "../types.js";

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isVowel = (c: number): boolean => c === 0x61 || c === 0x65 || c === 0x69 || c === 0x6f || c === 0x75 || c === 0x79;

const isBareLetter = (c: number): boolean => c !== 0x2d && !isDigit(c);

/**
 * Machine-generated names (DGA, throw-away registrations) have few vowels or long consonant
 * runs; English compounds (`quietmeadowbakery`) have neither, however high their entropy.
 * (Counts anything that is not a vowel as a consonant, as `[^aeiouy]` would.) Reads the label
 * without its hyphens and digits (`bare` characters long), without building that string.
 */
function looksGenerated(label: string, bare: number): boolean {
  let vowels = 0;
  let run = 0;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (!isBareLetter(c)) continue;
    if (isVowel(c)) {
      vowels++;
      run = 0;
    } else if (++run >= 6) {
      return true;
    }
  }
  return vowels / bare < 0.25;
}

/** Scratch counts per ASCII code, all zero between calls of `entropy`. */
const asciiCounts = new Int32Array(128);

/**
 * Shannon entropy in bits per character of the label without its hyphens and digits (`bare`
 * characters long; of UTF-16 code units: host labels here are ASCII). The terms are summed in
 * the order each character first occurs, as a `Map` of counts would iterate them, so the
 * floating-point result is the same to the last bit.
 */
function entropy(label: string, bare: number): number {
  for (let i = 0; i < label.length; i++) if (label.charCodeAt(i) >= 128) return entropyOfMap(label, bare);
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (isBareLetter(c)) asciiCounts[c] = (asciiCounts[c] as number) + 1;
  }
  let h = 0;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    const count = asciiCounts[c] as number;
    if (count === 0 || !isBareLetter(c)) continue;
    asciiCounts[c] = 0; // counted: later occurrences add nothing, and the scratch is clean again
    const p = count / bare;
    h -= p * Math.log2(p);
  }
  return h;
}

/** `entropy` for any UTF-16 text. */
function entropyOfMap(label: string, bare: number): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (isBareLetter(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const c of counts.values()) {
    const p = c / bare;
    h -= p * Math.log2(p);
  }
  return h;
}

const byWeight = (a: { weight: number }, b: { weight: number }): number => b.weight - a.weight;

const NO_KEYWORDS: readonly { word: string; weight: number }[] = Object.freeze([]);

/**
 * Risky keywords that appear as whole parts of host labels (`secure-login`) or as two keywords
 * run together (`walletconnect`, `securelogin`). A keyword that merely starts a longer word
 * (`account` in `accountant`) does not count.
 */
function keywordsIn(parts: readonly string[], ref: ReferenceData): readonly { word: string; weight: number }[] {
  let hits: Map<string, number> | null = null;
  const { starts, startsFilter, filter } = keywordTables(ref.keywords);
  for (const part of parts) {
    if (part.length < 3) continue;
    const exact = ref.keywords.get(part);
    if (exact) {
      (hits ??= new Map()).set(part, exact.weight);
      continue;
    }
    if (part.length < 6) continue;
    // Heads hashed as they grow: only a head the filters may hold is cut out and looked up.
    let h = 0;
    for (let k = 0; k < 3; k++) h = hashStep(h, part.charCodeAt(k));
    if (!startsFilter.mayContainHash(hashFinish(h)) || !starts.has(part.slice(0, 3))) continue;
    for (let cut = 3; cut <= part.length - 3; cut++) {
      if (cut > 3) h = hashStep(h, part.charCodeAt(cut - 1));
      if (!filter.mayContainHash(hashFinish(h))) continue;
      const head = ref.keywords.get(part.slice(0, cut));
      const tail = head ? ref.keywords.get(part.slice(cut)) : undefined;
      if (head && tail) {
        hits ??= new Map();
        hits.set(part.slice(0, cut), head.weight);
        hits.set(part.slice(cut), tail.weight);
      }
    }
  }
  if (hits === null) return NO_KEYWORDS;
  const out: { word: string; weight: number }[] = [];
  for (const [word, weight] of hits) out.push({ word, weight });
  return out.length > 1 ? out.sort(byWeight) : out;
}

interface KeywordTables {
  readonly starts: ReadonlySet<string>;
  /** `starts` as a bit filter, tested before a part's first three letters are cut out. */
  readonly startsFilter: StringFilter;
  readonly filter: StringFilter;
}

const tablesCache = new WeakMap<ReferenceData["keywords"], KeywordTables>();

/**
 * The first three letters of every keyword (a part that starts with none of them holds no two
 * run together), and the keywords as a bit filter (most heads of a part are no keyword).
 */
function keywordTables(keywords: ReferenceData["keywords"]): KeywordTables {
  let tables = tablesCache.get(keywords);
  if (!tables) {
    const filter = StringFilter.forCount(keywords.size);
    for (const k of keywords.keys()) filter.add(k);
    const starts = new Set([...keywords.keys()].map((k) => k.slice(0, 3)));
    const startsFilter = StringFilter.forCount(starts.size);
    for (const s of starts) startsFilter.add(s);
    tables = { starts, startsFilter, filter };
    tablesCache.set(keywords, tables);
  }
  return tables;
}

/** An official brand domain written in URL userinfo (`https://www.paypal.com@evil.net/`). */
function brandShownIn(user: string, ref: ReferenceData): { domain: string; brand: string } | null {
  const labels = user.toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join(".");
    const brand = ref.officialDomains.get(candidate);
    if (brand) return { domain: candidate, brand: brand.name };
  }
  return null;
}

/** Words of a name: the runs between hyphens, dots, digits and underscores, appended to `out`. */
function splitParts(name: string, out: string[]): string[] {
  let start = -1;
  for (let i = 0; i <= name.length; i++) {
    const c = i < name.length ? name.charCodeAt(i) : 0x2e;
    const separator = c === 0x2d || c === 0x2e || c === 0x5f || isDigit(c);
    if (!separator && start < 0) start = i;
    else if (separator && start >= 0) {
      out.push(name.slice(start, i));
      start = -1;
    }
  }
  return out;
}

/**
 * The platform a site is published on, when its name is a user's sub-domain of a free host: a
 * private suffix of the Public Suffix List (`name.blogspot.com`, `name.netlify.app`), a
 * brand's user-content domain (`name.tumblr.com`) or a free host we list (`name.weebly.com`).
 * The platform's own `www` is not a user's site.
 */
export function freeHostOf(registered: string, sub: string, suffix: string, privateSuffix: boolean, ref: ReferenceData): { domain: string; list: boolean } | null {
  // Under a private suffix the registrable name is the user's ("name.blogspot.com"); "www" is the platform's own.
  if (privateSuffix) return registered === `www.${suffix}` ? null : { domain: suffix, list: false };
  if (sub === "" || sub === "www") return null;
  if (ref.freeHosting.has(registered)) return { domain: registered, list: true };
  if (ref.userContentDomains.has(registered)) return { domain: registered, list: false };
  return null;
}

/** The generic top-level domains that predate ICANN's 2012 programme; two letters are country codes. */
const LEGACY_TLDS: ReadonlySet<string> = new Set(["com", "net", "org", "info", "biz", "name", "pro", "edu", "gov", "mil", "int", "arpa", "aero", "asia", "cat", "coop", "jobs", "mobi", "museum", "post", "tel", "travel", "xxx"]);

/** A generic top-level domain of the 2012 programme (.app, .space, .finance …): any ASCII TLD of three letters or more not in the legacy set. */
function isNewGenericTld(tld: string): boolean {
  return tld.length >= 3 && !tld.startsWith("xn--") && !LEGACY_TLDS.has(tld);
}

/** Features of how a host or URL is written. Each is weak alone; the ruleset caps the family. */
export function lexicalFindings(entity: Entity, ref: ReferenceData): Finding[] {
  const out: Finding[] = [];
  const a = entity.attributes;
  const lists = source(ref, "svc-lists");

  if (Array.isArray(a.hidden_characters) && a.hidden_characters.length > 0) {
    out.push({
      code: "entity.hidden_characters",
      family: "lexical",
      message: `Contains invisible characters (${a.hidden_characters.join(", ")}) often used to dodge filters${a.bidi_controls ? " or reverse displayed text" : ""}`,
      evidence: { characters: a.hidden_characters, bidi: a.bidi_controls === true },
      source: lists,
    });
  }

  if (entity.type === "url") {
    if (a.ip_literal) {
      const obfuscated = str(a.ip_obfuscated);
      out.push(obfuscated
        ? { code: "url.ip_obfuscated", family: "lexical", message: `Host is the IP address ${a.ip_literal} written as "${obfuscated}" to hide it`, evidence: { ip: a.ip_literal, written: obfuscated }, source: lists }
        : { code: "url.ip_literal_host", family: "lexical", message: `Links to a bare IP address (${a.ip_literal}) instead of a name`, evidence: { ip: a.ip_literal }, source: lists });
    }
    const user = str(a.userinfo);
    const shownBrand = user ? brandShownIn(user, ref) : null;
    if (user && shownBrand) {
      out.push({
        code: "url.userinfo_brand",
        family: "impersonation",
        message: `Shows ${shownBrand.domain} (${shownBrand.brand}) before an @, but the link really goes to ${a.host}`,
        evidence: { shown: user, target: shownBrand.domain, brand: shownBrand.brand, real_host: str(a.host) },
        source: source(ref, "brands"),
      });
    } else if (user) {
      const looksLikeHost = /\.[a-z]{2,}/i.test(user);
      out.push({
        code: "url.userinfo_deception",
        family: "lexical",
        message: looksLikeHost ? `Shows "${user}" before an @, but the link really goes to ${a.host}` : `Has a user name ("${user}") before the host, a trick to disguise the real site`,
        evidence: { shown: user, real_host: str(a.host) },
        source: lists,
        strength: looksLikeHost ? 1 : 0.4,
      });
    }
    const host = str(a.host);
    const registered = str(a.registered_domain);
    if ((host && ref.shorteners.has(host)) || (registered && ref.shorteners.has(registered))) {
      const own = ref.platforms.shortDomains.get(registered ?? host ?? "");
      out.push({ code: "url.shortener", family: "lexical", message: `A link shortener (${registered ?? host}${own ? `, ${own.brandName}'s own, leading to ${own.leadsTo}` : ""}) hides where this really goes; it cannot be followed without fetching it, so the destination was not checked`, evidence: { shortener: registered ?? host, destination_checked: false }, source: source(ref, "shorteners") });
    }
    if (typeof a.port === "number") {
      out.push({ code: "url.nonstandard_port", family: "lexical", message: `Uses the unusual port ${a.port}`, evidence: { port: a.port }, source: lists });
    }
    const path = str(a.path) ?? "";
    const pathWords = keywordsIn(path.toLowerCase().split(/[/?&=._-]+/), ref).filter((k) => k.weight >= 0.4);
    if (pathWords.length > 0) {
      out.push({ code: "url.risky_path_keyword", family: "lexical", message: `Path asks for "${pathWords.map((k) => k.word).join('", "')}"`, evidence: { keywords: pathWords.map((k) => k.word) }, source: source(ref, "keywords"), strength: pathWords[0]?.weight ?? 1 });
    }
  }

  const host = hostOf(entity);
  if (!host) return out;
  const registered = str(a.registered_domain) ?? host;
  const suffix = str(a.public_suffix) ?? "";
  const label = registered.slice(0, Math.max(0, registered.length - suffix.length - 1));
  const sub = str(a.subdomain) ?? "";
  const tld = str(a.tld) ?? "";

  const tldInfo = ref.suspiciousTlds.get(suffix) ?? ref.suspiciousTlds.get(tld);
  // A brand's own short domain (forms.gle, youtu.be) was not bought cheaply: its TLD says nothing.
  // (Looked up only when a TLD finding would follow: most names have neither.)
  const brandShort = tldInfo || (suffix === tld && isNewGenericTld(tld)) ? ref.platforms.shortDomains.get(registered) : undefined;
  if (brandShort) {
    out.push({ code: "domain.brand_short_domain", family: "lexical", message: `${registered} is the short domain of ${brandShort.brandName}, leading to ${brandShort.leadsTo}`, evidence: { domain: registered, brand: brandShort.brand, leads_to: brandShort.leadsTo }, source: source(ref, "platform-paths") });
  } else if (tldInfo) {
    out.push({ code: "domain.suspicious_tld", family: "lexical", message: `.${suffix} is a top-level domain heavily used for scams: ${tldInfo.rationale}`, evidence: { tld: suffix, weight: tldInfo.weight }, source: source(ref, "suspicious-tlds"), strength: tldInfo.weight });
  } else if (suffix === tld && isNewGenericTld(tld)) {
    out.push({ code: "domain.new_gtld", family: "lexical", message: `.${tld} is one of the generic top-level domains opened since 2013, where names are cheap and abuse runs several times that of .com; weak alone`, evidence: { tld }, source: lists });
  }
  const words = keywordsIn(splitParts(sub, splitParts(label, [])), ref);
  if (words.length > 0) {
    const strength = Math.min(1, (words[0]?.weight ?? 0) + 0.3 * (words[1]?.weight ?? 0));
    // The words quoted one after the other (as a `join` of them would read, without its cost on every check).
    const keywords: string[] = [];
    let quoted = "";
    for (const w of words) {
      quoted = keywords.length === 0 ? w.word : `${quoted}", "${w.word}`;
      keywords.push(w.word);
    }
    out.push({ code: "domain.risky_keyword", family: "lexical", message: `Name contains "${quoted}", words typical of phishing`, evidence: { keywords }, source: source(ref, "keywords"), strength });
  }
  // Count in the displayed (Unicode) form: punycode's own "xn--", "-" and digits are not the registrant's.
  const shownLabel = label.startsWith("xn--") && typeof a.unicode === "string" ? (a.unicode.split(".")[a.unicode.split(".").length - suffix.split(".").length - 1] ?? label) : label;
  // Hyphens and digits counted in one pass (and from them, the letters left without them).
  let hyphens = 0;
  let digits = 0;
  for (let i = 0; i < shownLabel.length; i++) {
    const c = shownLabel.charCodeAt(i);
    if (c === 0x2d) hyphens++;
    else if (isDigit(c)) digits++;
  }
  if (hyphens >= 2) {
    out.push({ code: "domain.many_hyphens", family: "lexical", message: `${hyphens} hyphens in the name`, evidence: { hyphens }, source: lists, strength: Math.min(1, (hyphens - 1) / 3) });
  }
  if (digits >= 4 && digits < shownLabel.length) {
    out.push({ code: "domain.many_digits", family: "lexical", message: `${digits} digits in the name`, evidence: { digits }, source: lists });
  }
  let depth = sub === "" ? 0 : 1;
  for (let i = sub.indexOf("."); i >= 0; i = sub.indexOf(".", i + 1)) depth++;
  if (depth >= 3) {
    out.push({ code: "domain.deep_subdomains", family: "lexical", message: `${depth} levels of sub-domains`, evidence: { depth }, source: lists, strength: Math.min(1, (depth - 2) / 3) });
  }
  if (host.length >= 40) {
    out.push({ code: "domain.long_name", family: "lexical", message: `Very long host name (${host.length} characters)`, evidence: { length: host.length }, source: lists });
  }
  // The label without hyphens and digits, counted rather than built (a punycode label is never read so).
  const bare = shownLabel === label ? label.length - hyphens - digits : 0;
  if (bare >= 12 && !label.startsWith("xn--") && looksGenerated(label, bare)) {
    const h = entropy(label, bare);
    out.push({ code: "domain.high_entropy", family: "lexical", message: "Name looks machine-generated (random letters)", evidence: { entropy: Math.round(h * 100) / 100 }, source: lists, strength: Math.min(1, Math.max(0.5, (h - 3.3) / 0.6)) });
  }
  const platform = freeHostOf(registered, sub, suffix, a.private_suffix === true, ref);
  if (platform) {
    out.push({ code: "domain.free_hosting", family: "lexical", message: `Published on ${platform.domain}, where anyone can put up a site; its owner is unknown`, evidence: { platform: platform.domain }, source: platform.list ? source(ref, "free-hosting") : lists });
  }
  if (a.idn === true) {
    out.push({ code: "domain.punycode", family: "lexical", message: `Internationalised name, displayed as ${a.unicode}`, evidence: { unicode: str(a.unicode) }, source: lists, strength: 0.6 });
  }
  return out;
}
