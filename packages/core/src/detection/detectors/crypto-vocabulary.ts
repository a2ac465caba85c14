import type { Entity } from "../../entities/types.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";

/**
 * Two facts about how crypto scam sites are named, beside the giveaway pattern of
 * crypto-giveaway.ts:
 *
 * - **Wallet-drainer naming** (`domain.wallet_lure`): something a drainer wants connected
 *   (wallet, dapp, token …) together with a made-up service step (sync, rectify, validate,
 *   restore …): "walletsync-live.org", "dappsrectify.com", "tokenimport.com". No wallet needs
 *   "rectifying" on a website; these pages ask for the recovery phrase or a draining approval.
 * - **Crypto vocabulary** (`domain.crypto_term`): an asset name or ticker, or a figure fake
 *   giveaways invoke, as a part of the name or at one end of one ("ethboom", "bnbeth",
 *   "tslamusk"). Weak alone (a lexical feature, like a risky keyword): plenty of honest projects
 *   carry such names. Beside a brand's name in an unofficial domain it is what turns "a brand
 *   is mentioned" into "a crypto brand is being dressed up" (`binanceeth.org`).
 *
 * Words inside ordinary words do not count ("ethics", "together", "tissue", "definitely": the
 * English word list, and per term the data's false friends), nor do punycode labels, nor does a
 * word that is part of a brand's own name ("coin" in "coinbase", "ethereum" in "localethereum",
 * "walletconnect"): the impersonation detector already judges those.
 */

interface Vocabulary {
  /** Asset terms, longest first. */
  readonly terms: readonly string[];
  /** Wallet-lure words, longest first ("dapps" before "dapp", "connections" before "connect"). */
  readonly objects: readonly string[];
  readonly actions: readonly string[];
  /** Both lists, for telling our own longer words from ordinary ones. */
  readonly lureWords: ReadonlySet<string>;
  readonly anyTerm: RegExp | null;
  readonly anyObject: RegExp | null;
  readonly anyAction: RegExp | null;
  /** Per long term: the brand names that contain it ("blockchaincom"); ordinary words are `withinWord`'s. */
  readonly containing: ReadonlyMap<string, readonly string[]>;
}

/** Terms this long are distinctive anywhere in a part ("myethereumwwallet"); shorter ones only at an end. */
const MIN_INSIDE = 6;

/** A pattern for any of `words`; null for none. */
const anyOf = (words: readonly string[]): RegExp | null => (words.length > 0 ? new RegExp(words.join("|")) : null);

const vocabularies = new WeakMap<ReferenceData, Vocabulary>();
function vocabularyOf(ref: ReferenceData): Vocabulary {
  let v = vocabularies.get(ref);
  if (!v) {
    const terms = [...ref.cryptoAssets.keys()].sort((a, b) => b.length - a.length);
    const longestFirst = (xs: readonly string[]): string[] => [...xs].sort((a, b) => b.length - a.length);
    v = {
      terms,
      objects: longestFirst(ref.walletLures.objects),
      actions: longestFirst(ref.walletLures.actions),
      lureWords: new Set([...ref.walletLures.objects, ...ref.walletLures.actions]),
      anyTerm: anyOf(terms),
      anyObject: anyOf(ref.walletLures.objects),
      anyAction: anyOf(ref.walletLures.actions),
      containing: new Map(
        terms
          .filter((t) => t.length >= MIN_INSIDE)
          .map((t) => [t, [...ref.brandTokens.keys()].filter((w) => w.length > t.length && w.includes(t))]),
      ),
    };
    vocabularies.set(ref, v);
  }
  return v;
}

/** The part of a host before its public suffix ("app.uniswap-eth" of "app.uniswap-eth.com"). */
export function nameOf(entity: Entity, host: string): string {
  const suffix = typeof entity.attributes.public_suffix === "string" ? entity.attributes.public_suffix : "";
  return suffix && host.endsWith(`.${suffix}`) ? host.slice(0, host.length - suffix.length - 1) : host;
}

/**
 * Letters-only parts of a name: the runs between dots, hyphens, underscores and digits. Punycode
 * labels ("xn--coinbse-30a") are skipped: their ASCII letters are not the name people see (the
 * homograph check reads those).
 */
function partsOf(name: string): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i <= name.length; i++) {
    if ((i === 0 || name.charCodeAt(i - 1) === 0x2e) && name.startsWith("xn--", i)) {
      const dot = name.indexOf(".", i);
      if (dot < 0) break;
      i = dot;
      continue;
    }
    const c = i < name.length ? name.charCodeAt(i) : 0x2e;
    const letter = c >= 0x61 && c <= 0x7a;
    if (letter && start < 0) start = i;
    else if (!letter && start >= 0) {
      parts.push(name.slice(start, i));
      start = -1;
    }
  }
  return parts;
}

/** True when the term at the start (or end) of `part` lies inside a brand's name written there ("coin" of "coinbasepro"). */
function insideBrandName(part: string, termLength: number, atStart: boolean, ref: ReferenceData): boolean {
  for (let len = termLength; len <= part.length; len++) {
    if (ref.brandTokens.has(atStart ? part.slice(0, len) : part.slice(part.length - len))) return true;
  }
  return false;
}

/** Fewest letters beside a term for it to count at the end of a longer part ("ethboom": 4; not "ethos"). */
const MIN_BESIDE = 2;

/** Longest English word (or false friend: the longest is 13 letters) looked for around a match. */
export const MAX_WORD = 14;

/**
 * True when the letters `part[start, end)` are only a piece of a longer English word written
 * there: "defi" in "definitely", "matic" in "pneumatic", "issue" in "tissue", "unlock" in
 * "unlocks". Such a match names nothing.
 */
function withinWord(part: string, start: number, end: number, ref: ReferenceData, ours?: ReadonlySet<string>, neighbours: readonly LureHit[] = []): boolean {
  const match = part.slice(start, end);
  for (let a = Math.max(0, start - MAX_WORD); a <= start; a++) {
    for (let b = end; b <= Math.min(part.length, a + MAX_WORD); b++) {
      if (b - a <= end - start) continue;
      const w = part.slice(a, b);
      if (!ref.englishWords.has(w) && !ref.cryptoFalseFriends.has(w)) continue;
      // For lure words: a longer word of our own lists ("wallets" around "wallet") is matched in its
      // own right, an inflection of the match ("connects", "fixed") is the same word. A word that would
      // reach into a neighbouring lure word ("tissues" in "walletissues") is not what was written.
      if (ours && (ours.has(w) || (a === start && INFLECTION.test(w.slice(end - start)) && w.startsWith(match)))) continue;
      if (neighbours.some((n) => n.start !== start && a < n.end && b > n.start)) continue;
      return true;
    }
  }
  return false;
}

const INFLECTION = /^(?:s|es|d|ed|ing)$/;

/** A term at one end of `part` that is neither inside a brand's name nor the start or end of an ordinary word. */
function termAtEnd(part: string, term: string, atStart: boolean, ref: ReferenceData): boolean {
  if (!(atStart ? part.startsWith(term) : part.endsWith(term))) return false;
  const start = atStart ? 0 : part.length - term.length;
  return !insideBrandName(part, term.length, atStart, ref) && !withinWord(part, start, start + term.length, ref);
}

/** A long term inside a part, between other letters, and not inside an ordinary word or a brand's name written there. */
function termInside(part: string, term: string, v: Vocabulary, ref: ReferenceData): boolean {
  const at = part.indexOf(term, 1);
  if (at < 0 || at + term.length >= part.length) return false;
  for (const w of v.containing.get(term) ?? []) if (part.includes(w)) return false;
  return !withinWord(part, at, at + term.length, ref);
}

/**
 * The crypto term a part names, exactly, at one end or (long terms) inside; null when none.
 * `hasTerm`: whether some asset term occurs in `part` at all, when the caller has tested it already.
 */
export function cryptoTermOfPart(part: string, ref: ReferenceData, hasTerm?: boolean): string | null {
  if (part.length < 3) return null;
  if (ref.cryptoAssets.has(part)) return ref.brandTokens.has(part) ? null : part;
  // An ordinary word is not a term run into another ("pneumatic", "ethereal", "defining").
  if (ref.englishWords.has(part)) return null;
  const v = vocabularyOf(ref);
  if (!(hasTerm ?? v.anyTerm?.test(part) === true)) return null;
  for (const term of v.terms) {
    if (part.length < term.length + MIN_BESIDE) continue;
    if (termAtEnd(part, term, true, ref) || termAtEnd(part, term, false, ref)) return term;
    if (term.length >= MIN_INSIDE && termInside(part, term, v, ref)) return term;
  }
  return null;
}

interface LureHit {
  readonly word: string;
  readonly object: boolean;
  readonly start: number;
  readonly end: number;
}

/**
 * The wallet-lure words written as words of `part`: each must stand at an end of the part or
 * against another lure word ("walletsynclive": "wallet" | "sync"; "syncwalletlivetokenrestore"),
 * and must not be a piece of a longer English word ("defi" in "definitely", "import" in
 * "important", "issue" in "tissue").
 */
function lureWordsIn(part: string, { objects, actions, lureWords }: Vocabulary, ref: ReferenceData): LureHit[] {
  const all: LureHit[] = [];
  for (const [words, object] of [[objects, true], [actions, false]] as const) {
    for (const word of words) {
      for (let at = part.indexOf(word); at >= 0; at = part.indexOf(word, at + 1)) all.push({ word, object, start: at, end: at + word.length });
    }
  }
  const found = all.filter((h) => !withinWord(part, h.start, h.end, ref, lureWords, all));
  // An inflection ending ("restores", "fixed") still leaves the word at the end of its part.
  const atEnd = (h: LureHit): boolean => h.end === part.length || INFLECTION.test(part.slice(h.end));
  return found.filter((h) => h.start === 0 || atEnd(h) || found.some((o) => o !== h && (o.end === h.start || o.start === h.end || (o.start > h.end && INFLECTION.test(part.slice(h.end, o.start))))));
}

/**
 * First object and action of wallet-drainer naming in `name`, in one part or in two: words of
 * their parts (see `lureWordsIn`), not overlapping ("tokens" is one word). Punycode labels and
 * parts that are a brand's own name ("walletconnect") are not read.
 */
function walletLureIn(name: string, v: Vocabulary, ref: ReferenceData): { object: string; action: string } | null {
  const hits: LureHit[] = [];
  let offset = 0;
  for (const label of name.split(".")) {
    if (!label.startsWith("xn--")) {
      let at = 0;
      for (const part of label.split(/[-_]/)) {
        if (part.length >= 3 && !ref.brandTokens.has(part)) {
          for (const h of lureWordsIn(part, v, ref)) hits.push({ ...h, start: h.start + offset + at, end: h.end + offset + at });
        }
        at += part.length + 1;
      }
    }
    offset += label.length + 1;
  }
  const apart = (x: LureHit, y: LureHit): boolean => x.end <= y.start || x.start >= y.end;
  // Name the words as read: an object that shares no letter with any action first ("wallet" in
  // "walletsync", not "wallets").
  const objects = hits.filter((h) => h.object);
  objects.sort((x, y) => Number(hits.some((a) => !a.object && !apart(a, x))) - Number(hits.some((a) => !a.object && !apart(a, y))));
  for (const o of objects) {
    for (const a of hits) if (!a.object && apart(a, o)) return { object: o.word, action: a.word };
  }
  return null;
}

/**
 * Wallet-drainer naming or crypto vocabulary in `name` (the host before its public suffix).
 * `anyTerm`: whether some asset term occurs anywhere in `name` (the caller has tested it).
 */
export function cryptoVocabularyFindings(name: string, ref: ReferenceData, giveaway: boolean, anyTerm: boolean): Finding[] {
  const v = vocabularyOf(ref);
  // Both kinds of word must occur somewhere before the name is read word by word (most names: neither).
  const lure = v.anyObject?.test(name) && v.anyAction?.test(name) ? walletLureIn(name, v, ref) : null;
  if (lure) {
    return [{
      code: "domain.wallet_lure",
      family: "impersonation",
      message: `Names “${lure.object}” with “${lure.action}”: how wallet drainers name their fake repair and sync pages (no wallet needs this on a website)`,
      evidence: { object: lure.object, action: lure.action },
      source: source(ref, "wallet-lures"),
    }];
  }
  // A giveaway finding already names the asset: the word is not counted twice.
  if (giveaway || !anyTerm) return [];
  let term: string | null = null;
  for (const part of partsOf(name)) if ((term = cryptoTermOfPart(part, ref))) break;
  if (!term) return [];
  const asset = ref.cryptoAssets.get(term) ?? term;
  return [{
    code: "domain.crypto_term",
    family: "lexical",
    message: `Name uses "${term}" (${asset}), common in crypto scam sites; weak alone`,
    evidence: { term, asset },
    source: source(ref, "crypto-assets"),
  }];
}
