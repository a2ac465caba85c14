import { hostOf } from "../../entities/host.js";
import type { Entity } from "../../entities/types.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";
import { cryptoTermOfPart, cryptoVocabularyFindings, nameOf } from "./crypto-vocabulary.js";

interface Vocabulary {
  /** Asset terms, longest first ("ethers" before "ether" before "eth"). */
  readonly terms: readonly string[];
  /** Lure words of the "reward" kind (giveaway, airdrop, bonus, claim …), four letters or more. */
  readonly lures: readonly string[];
  /** "x2", "x10" … next to an asset term ("ethx10", "x2btc"): the doubling promise itself. */
  readonly multiplier: RegExp;
  /** Any asset term anywhere: without one there is nothing to find (most names). */
  readonly anyAsset: RegExp;
}

/** The doubling promise, captured: "x2", "x10", "10x" … */
const TIMES = "(x(?:2|3|5|10|20|50|100)|(?:2|3|5|10|20|50|100)x)";

const vocabularies = new WeakMap<ReferenceData, Vocabulary>();
function vocabularyOf(ref: ReferenceData): Vocabulary {
  let v = vocabularies.get(ref);
  if (!v) {
    const terms = [...ref.cryptoAssets.keys()].sort((a, b) => b.length - a.length);
    v = {
      terms,
      lures: [...ref.keywords].filter(([w, k]) => k.category === "reward" && w.length >= 4).map(([w]) => w),
      anyAsset: new RegExp(terms.join("|")),
      // "x2" or "2x" beside the asset: "ethx10", "btc10x", "x2-btc", "crypto2xpool".
      multiplier: new RegExp(`(?:^|[^a-z])(?:(${terms.join("|")})-?${TIMES}(?!\\d)|${TIMES}-?(${terms.join("|")})(?![a-z]))`),
    };
    vocabularies.set(ref, v);
  }
  return v;
}

/** A reward word leading or ending a part that is not itself an ordinary word ("promosgive"; not "freedom"). */
function lureAtEnd(part: string, { lures }: Vocabulary, ref: ReferenceData): string | null {
  if (part.length < 6 || ref.englishWords.has(part)) return null;
  for (const lure of lures) {
    if (part.length - lure.length < 2) continue;
    if (part.startsWith(lure) || part.endsWith(lure)) return lure;
  }
  return null;
}

interface Hit {
  readonly term: string;
  readonly lure: string;
}

/** "airdrop" starting a part of a label ("airdrop-portal", "airdropbat"); not the end of another word ("chairdrop"). */
const AIRDROP = /(?:^|[.\-_\d])airdrop/;
const AIRDROP_ALONE_STRENGTH = 0.9;

/** Letters allowed between a long asset name and its lure word in one part ("ethereumnewgift"). */
const MAX_FILLER = 4;

/**
 * An asset term and a lure word inside one part: written against each other ("ethgiveaway",
 * "freebtc", "bitcoindouble"), or an asset name of five letters or more at one end and the lure
 * at the other with at most a short word between ("ethersnewgift", "doubleyourbitcoin" is
 * lure + "your" + asset). A three- or four-letter ticker must touch its lure: "ethicalgifts"
 * is not Ether.
 */
function inOnePart(part: string, { terms, lures }: Vocabulary): Hit | null {
  for (const lure of lures) {
    for (let at = part.indexOf(lure); at >= 0; at = part.indexOf(lure, at + 1)) {
      const before = part.slice(0, at);
      const after = part.slice(at + lure.length);
      for (const term of terms) {
        const gap = term.length >= 5 ? MAX_FILLER : 0;
        if (before.endsWith(term) || after.startsWith(term)) return { term, lure };
        if (gap > 0 && ((before.startsWith(term) && before.length - term.length <= gap && after.length === 0) || (after.endsWith(term) && after.length - term.length <= gap && before.length === 0))) return { term, lure };
      }
    }
  }
  return null;
}

/**
 * Crypto naming: the giveaway pattern below, then wallet-drainer naming and crypto vocabulary
 * (crypto-vocabulary.ts).
 *
 * Crypto giveaway naming: an asset name or ticker together with a giveaway word in a host name
 * — "eth-giveaway.com", "btc-double.net", "freeethpromo.org", "bonus.status-eth.top",
 * "ethx10.com". This is how "send 1, get 2 back" giveaways and fake airdrops name their sites;
 * legitimate projects rarely put the two together. Words count when they are whole parts of a
 * label (between dots, hyphens or digits) or written against each other (see `inOnePart`),
 * never as letters inside another word.
 */
export function cryptoGiveawayFindings(entity: Entity, ref: ReferenceData): Finding[] {
  if (entity.type !== "domain" && entity.type !== "url" && entity.type !== "email") return [];
  const host = hostOf(entity);
  if (!host || ref.cryptoAssets.size === 0) return [];
  const name = nameOf(entity, host);
  // One search for any asset term serves both checks (and, when it fails, every part of the name).
  const anyAsset = vocabularyOf(ref).anyAsset.test(name);
  const giveaway = giveawayFinding(name, ref, anyAsset);
  const vocabulary = cryptoVocabularyFindings(name, ref, giveaway !== null, anyAsset);
  return giveaway ? [giveaway, ...vocabulary] : vocabulary;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** Ends a part of a label, as `split(/[-_\d]+/)` would cut it. */
const isPartBreak = (c: number): boolean => c === 0x2d || c === 0x5f || isDigit(c);

function hasDigit(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isDigit(s.charCodeAt(i))) return true;
  return false;
}

function giveawayFinding(name: string, ref: ReferenceData, anyAsset: boolean): Finding | null {
  const vocabulary = vocabularyOf(ref);
  const airdrop = AIRDROP.test(name);
  if (!airdrop && !anyAsset) return null;
  // The multiplier needs a digit, and matches the whole name only where it matches some label
  // (a dot stands where a label's start or end would): most names need no label searched for it.
  const multiplied = anyAsset && hasDigit(name) && vocabulary.multiplier.test(name);
  let hit: Hit | null = null;
  let term: string | null = null;
  let lure: string | null = null;
  // Label by label (the first label with a hit wins), part by part: the runs between "-", "_" and digits.
  for (let start = 0; start <= name.length && !hit; ) {
    let end = name.indexOf(".", start);
    if (end < 0) end = name.length;
    const m = multiplied ? vocabulary.multiplier.exec(name.slice(start, end)) : null;
    if (m) {
      hit = { term: (m[1] ?? m[4]) as string, lure: (m[2] ?? m[3]) as string };
      break;
    }
    let from = start;
    for (let i = start; i <= end; i++) {
      if (i < end && !isPartBreak(name.charCodeAt(i))) continue;
      if (i > from) {
        const part = name.slice(from, i);
        if (ref.cryptoAssets.has(part)) term ??= part;
        else if (ref.keywords.get(part)?.category === "reward") lure ??= part;
        else {
          // A part holds an asset term only if the name does.
          const assetInPart = anyAsset && (!hit || term === null) && vocabulary.anyAsset.test(part);
          if (!hit && assetInPart) hit = inOnePart(part, vocabulary);
          // Each side may also lead or end a longer part: "beetoken-ico", "eth-promosgive".
          term ??= cryptoTermOfPart(part, ref, assetInPart);
          lure ??= lureAtEnd(part, vocabulary, ref);
        }
      }
      from = i + 1;
    }
    start = end + 1;
  }
  hit ??= term && lure ? { term, lure } : null;
  // "Airdrop" is itself a crypto token give-away: the word names both asset and lure, so it counts
  // alone, a little weaker (medium; with a scam TLD or another sign, high).
  let strength = 1;
  if (!hit && airdrop) {
    hit = { term: "airdrop", lure: "airdrop" };
    strength = AIRDROP_ALONE_STRENGTH;
  }
  if (!hit) return null;
  const asset = ref.cryptoAssets.get(hit.term) ?? (hit.term === "airdrop" ? "a token airdrop" : hit.term);
  return {
    code: "domain.crypto_giveaway",
    family: "impersonation",
    message: `Names ${asset} ("${hit.term}") with "${hit.lure}": how fake crypto giveaways and airdrops name their sites`,
    evidence: { asset, term: hit.term, lure: hit.lure },
    source: source(ref, "crypto-assets"),
    ...(strength < 1 ? { strength } : {}),
  };
}
