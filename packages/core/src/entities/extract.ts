import { normalizeText } from "./normalize.js";
import { parseDetected } from "./parse-entity.js";
import type { Entity, EntityAttributes, EntityType } from "./types.js";
import { looksLikeWallet } from "./wallet.js";

/**
 * Finds every entity in a chat message. Designed for hostile input:
 * - one forward pass per concern, with bounded look-ahead and no backtracking regular
 *   expressions, so time is linear in the text (100 KB of adversarial input in milliseconds);
 * - invisible characters and defanged spellings are normalised first, so `pay\u200Bpal[.]com`
 *   is found, and both facts are reported;
 * - Markdown `[text](url)` and HTML `<a href>` links are read as links: the target is the
 *   entity, and link text that shows a different site than the target is flagged;
 * - at most `maxEntities` distinct entities are returned (`truncated` says when there were more).
 */
export interface ExtractOptions {
  /** Distinct entities to return at most (default 20). */
  readonly maxEntities?: number;
  /** Characters of the message to read at most (default 200,000). */
  readonly maxLength?: number;
}

export interface LinkInfo {
  /** The site the link text shows, when it shows one. */
  readonly text_host: string | null;
  /** The link text shows one site while the link goes to another. */
  readonly mismatch: boolean;
}

export interface ExtractedEntity {
  readonly entity: Entity;
  /** Offsets of the first occurrence in the original text (UTF-16 code units, end exclusive). */
  readonly start: number;
  readonly end: number;
  readonly occurrences: number;
  readonly via: "text" | "markdown_link" | "html_link";
  readonly link?: LinkInfo;
}

export interface Extraction {
  readonly entities: readonly ExtractedEntity[];
  readonly truncated: boolean;
  readonly hidden_characters: readonly string[];
  readonly bidi_controls: boolean;
  readonly defanged: boolean;
}

const DEFAULT_MAX_ENTITIES = 20;
const DEFAULT_MAX_LENGTH = 200_000;
const MAX_LINK_TEXT = 1000;
const MAX_TARGET = 2048;
const MAX_TAG = 1000;
const MAX_TOKEN = 2048;

type Span = readonly [start: number, end: number];

const isSpace = (c: number): boolean =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
/** Characters that end a token: spaces, quotes, angle brackets, and CJK punctuation. */
const isDelimiter = (c: number): boolean =>
  isSpace(c) || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3e || c === 0x60 || c === 0x7c ||
  (c >= 0x3001 && c <= 0x3011) || c === 0xff0c || c === 0xff08 || c === 0xff09 || c === 0xff1b || c === 0xff01 || c === 0xff1f;
const LEADING_JUNK = new Set([0x28, 0x5b, 0x7b, 0x2a, 0x5f, 0x7e, 0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0x2e]);
const TRAILING_JUNK = new Set([0x2e, 0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0x29, 0x5d, 0x7d, 0x2a, 0x5f, 0x7e]);

const count = (s: string, ch: string): number => {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
};

/** Trims punctuation around a token; a closing parenthesis stays when it balances one inside (wiki URLs). */
function trimToken(t: string, start: number, end: number): Span {
  while (start < end && LEADING_JUNK.has(t.charCodeAt(start))) start++;
  while (end > start) {
    const c = t.charCodeAt(end - 1);
    if (!TRAILING_JUNK.has(c)) break;
    if (c === 0x29 && count(t.slice(start, end), "(") >= count(t.slice(start, end), ")")) break;
    end--;
  }
  return [start, end];
}

/** A token is worth parsing only if it has the shape of some entity (cheap test before real parsing). */
function isCandidate(t: string, start: number, end: number): boolean {
  const len = end - start;
  if (len < 4 || len > MAX_TOKEN) return false;
  for (let i = start; i < end; i++) {
    const c = t.charCodeAt(i);
    // Dotted, @ or colon tokens may be hosts, URLs, e-mails or platform:handle.
    if (c === 0x2e || c === 0x40 || c === 0x3a || c === 0x3002 || c === 0xff0e || c === 0xff61) return true;
  }
  // Without those, only a wallet address is possible.
  return len >= 14 && looksLikeWallet(t.slice(start, end));
}

/** "fine.So" is a sentence typed without a space, not the domain fine.so. */
function isSentenceJoin(token: string, type: EntityType): boolean {
  if (type !== "domain") return false;
  const lastDot = token.lastIndexOf(".");
  const tld = token.slice(lastDot + 1);
  return tld.length > 1 && /^[A-Z][a-z]+$/.test(tld);
}

export function extractEntities(text: string, options: ExtractOptions = {}): Extraction {
  const maxEntities = options.maxEntities ?? DEFAULT_MAX_ENTITIES;
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const cut = typeof text === "string" ? text.slice(0, maxLength) : "";
  const norm = normalizeText(cut);
  const t = norm.text;
  const found = new Map<string, { item: ExtractedEntity; occurrences: number }>();
  let truncated = cut.length < (typeof text === "string" ? text.length : 0);
  const linkSpans: Span[] = [];

  // Messages repeat themselves (the same link pasted three times): parse each distinct token once.
  const memo = new Map<string, ReturnType<typeof parseDetected>>();
  const parseOnce = (raw: string): ReturnType<typeof parseDetected> => {
    let p = memo.get(raw);
    if (p === undefined && !memo.has(raw)) {
      p = parseDetected(raw);
      memo.set(raw, p);
    }
    return p ?? null;
  };

  const add = (raw: string, s: number, e: number, via: ExtractedEntity["via"], link?: LinkInfo): boolean => {
    const p = parseOnce(raw);
    if (!p || !p.result.ok) return false;
    if (via === "text" && isSentenceJoin(raw, p.type)) return false;
    const id = `${p.type}:${p.result.value}`;
    const seen = found.get(id);
    if (seen) {
      seen.occurrences++;
      return true;
    }
    if (found.size >= maxEntities) {
      truncated = true;
      return true;
    }
    const start = norm.toOriginal(s);
    const end = norm.toOriginal(e);
    const input = cut.slice(start, end);
    const attributes: EntityAttributes = { ...p.result.attributes };
    if (input !== raw) {
      // What was hidden or defanged inside this entity's own span is a fact about the entity.
      const own = normalizeText(input);
      if (own.hidden.length > 0) attributes.hidden_characters = [...own.hidden];
      if (own.bidi) attributes.bidi_controls = true;
      if (own.defanged) attributes.defanged = true;
    }
    const entity: Entity = { type: p.type, value: p.result.value, id, input, attributes };
    found.set(id, { item: link ? { entity, start, end, occurrences: 1, via, link } : { entity, start, end, occurrences: 1, via }, occurrences: 1 });
    return true;
  };

  const hostOf = (raw: string): string | null => {
    const p = parseOnce(raw);
    if (!p || !p.result.ok) return null;
    const a = p.result.attributes;
    const host = a.registered_domain ?? a.ip_literal ?? null;
    return typeof host === "string" ? host : null;
  };

  const addLink = (target: string, ts: number, te: number, linkText: string, via: "markdown_link" | "html_link"): void => {
    let textHost: string | null = null;
    forEachToken(linkText, 0, linkText.length, [], (s, e) => {
      textHost = hostOf(linkText.slice(s, e));
      return textHost === null;
    });
    const targetHost = hostOf(target);
    add(target, ts, te, via, { text_host: textHost, mismatch: textHost !== null && targetHost !== null && textHost !== targetHost });
  };

  // Markdown links: remember the last "[" on the line; at "](" read the target up to ")".
  let open = -1;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x0a) open = -1;
    else if (c === 0x5b) open = i;
    else if (c === 0x5d && open >= 0 && t.charCodeAt(i + 1) === 0x28 && i - open <= MAX_LINK_TEXT) {
      let j = i + 2;
      let depth = 0;
      const limit = Math.min(t.length, j + MAX_TARGET);
      for (; j < limit; j++) {
        const d = t.charCodeAt(j);
        if (isSpace(d)) break;
        if (d === 0x28) depth++;
        else if (d === 0x29 && depth-- === 0) break;
      }
      if (t.charCodeAt(j) === 0x29) {
        addLink(t.slice(i + 2, j), i + 2, j, t.slice(open + 1, i), "markdown_link");
        linkSpans.push([open, j + 1]);
      }
      // Either way the scanned stretch is done with: rescanning it from every "](" inside it would be quadratic.
      i = Math.max(i, j - 1);
      open = -1;
    }
  }

  // HTML anchors. The next ">" and "</a" positions are cached, so each character is looked at a bounded number of times.
  const lower = t.length > 0 && t.includes("<") ? t.toLowerCase() : "";
  let nextGt = -2;
  let nextClose = -2;
  for (let p = lower.indexOf("<a", 0); p >= 0 && found.size < maxEntities; p = lower.indexOf("<a", p + 2)) {
    const after = lower.charCodeAt(p + 2);
    if (!isSpace(after)) continue;
    if (nextGt !== -1 && nextGt < p) nextGt = lower.indexOf(">", p);
    if (nextGt < 0) break;
    if (nextGt - p > MAX_TAG) continue;
    const tag = t.slice(p, nextGt);
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
    const value = href ? (href[1] ?? href[2] ?? href[3] ?? "") : "";
    if (!href || value.length === 0 || value.length > MAX_TARGET) continue;
    const valueStart = p + (href.index ?? 0) + href[0].length - value.length - (href[3] === undefined ? 1 : 0);
    if (nextClose !== -1 && nextClose < nextGt) nextClose = lower.indexOf("</a", nextGt);
    const textEnd = nextClose >= 0 && nextClose - nextGt <= MAX_LINK_TEXT ? nextClose : nextGt + 1;
    const linkText = t.slice(nextGt + 1, textEnd).replace(/<[^<>]*>/g, " ");
    addLink(decodeHtmlEntities(value), valueStart, valueStart + value.length, linkText, "html_link");
    linkSpans.push([p, textEnd]);
    p = textEnd - 2;
  }

  // Phone numbers: "+" and a digit, then digits and separators; spans spaces, so handled before tokens.
  const phoneSpans: Span[] = [];
  for (let p = t.indexOf("+"); p >= 0 && found.size < maxEntities; p = t.indexOf("+", p + 1)) {
    const d = t.charCodeAt(p + 1);
    if (!(d >= 0x30 && d <= 0x39)) continue;
    const prev = p > 0 ? t.charCodeAt(p - 1) : 0x20;
    if ((prev >= 0x30 && prev <= 0x39) || (prev | 0x20) >= 0x61 && (prev | 0x20) <= 0x7a) continue;
    let e = p + 1;
    let digits = 0;
    while (e < t.length && e - p < 24) {
      const c = t.charCodeAt(e);
      if (c >= 0x30 && c <= 0x39) digits++;
      else if (!(c === 0x20 || c === 0x2d || c === 0x2e || c === 0x28 || c === 0x29)) break;
      e++;
    }
    while (e > p && !(t.charCodeAt(e - 1) >= 0x30 && t.charCodeAt(e - 1) <= 0x39)) e--;
    if (digits >= 7 && add(t.slice(p, e), p, e, "text")) phoneSpans.push([p, e]);
    p = e - 1;
  }

  const masked = [...linkSpans, ...phoneSpans].sort((a, b) => a[0] - b[0]);
  forEachToken(t, 0, t.length, masked, (s, e) => {
    add(t.slice(s, e), s, e, "text");
    return !(found.size >= maxEntities && truncated);
  });

  const entities = [...found.values()]
    .map(({ item, occurrences }) => ({ ...item, occurrences }))
    .sort((a, b) => a.start - b.start);
  return { entities, truncated, hidden_characters: norm.hidden, bidi_controls: norm.bidi, defanged: norm.defanged };
}

/** Calls `visit` with each candidate token of t[from, to), skipping masked spans (sorted by start), until it returns false. */
function forEachToken(t: string, from: number, to: number, masked: readonly Span[], visit: (start: number, end: number) => boolean): void {
  let m = 0;
  let i = from;
  while (i < to) {
    while (m < masked.length && (masked[m] as Span)[1] <= i) m++;
    const span = masked[m];
    if (span && span[0] <= i) {
      i = span[1];
      continue;
    }
    const c = t.charCodeAt(i);
    if (isDelimiter(c)) {
      i++;
      continue;
    }
    let e = i + 1;
    const stop = span ? Math.min(to, span[0]) : to;
    while (e < stop && !isDelimiter(t.charCodeAt(e))) e++;
    if (e - i >= 4) {
      const [s2, e2] = trimToken(t, i, e);
      if (isCandidate(t, s2, e2) && !visit(s2, e2)) return;
    }
    i = e;
  }
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#x2f;": "/", "&#47;": "/" };
const decodeHtmlEntities = (s: string): string => (s.includes("&") ? s.replace(/&(?:amp|lt|gt|quot|#39|#x2f|#47);/gi, (m) => HTML_ENTITIES[m.toLowerCase()] ?? m) : s);
