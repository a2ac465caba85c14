// The detection bench's inputs: synthetic block-list records and the domain queries (10 % listed,
// 5 % brand look-alikes, 85 % unknown names), from one deterministic pseudo-random sequence (the
// same inputs on every run, as long as they are drawn in the same order).
import type { IntelRecord } from "@svc/core";
import { rng } from "../rng.js";

export const rand = rng(20261122);
export const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)] as T;
/** A flat string, as a feed parser would produce (not a rope of concatenations). */
const flat = (s: string): string => String.fromCharCode(...Array.from(s, (c) => c.charCodeAt(0)));

export const WORDS = ["secure", "login", "wallet", "claim", "airdrop", "verify", "support", "account", "update", "bonus", "meta", "coin", "swap", "defi", "nft", "mint", "token", "bridge", "connect", "sync", "help", "pay", "bank", "mail", "cloud", "shop", "gift", "promo", "crypto", "trade", "finance", "portal", "online", "web", "app", "my", "get", "best", "live", "official"];
const TLDS = ["com", "net", "org", "io", "xyz", "top", "online", "site", "app", "info", "co", "live", "click", "shop", "co.uk", "ru", "de", "vip", "cc", "pw"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";
export const randomLetters = (n: number): string => Array.from({ length: n }, () => pick([...LETTERS])).join("");
export const randomHex = (n: number): string => Array.from({ length: n }, () => pick([...HEX])).join("");

export function syntheticDomain(i: number): string {
  const shape = i % 4;
  const base = shape === 0 ? `${pick(WORDS)}-${pick(WORDS)}${i % 1000}` : shape === 1 ? `${pick(WORDS)}${randomLetters(5)}` : shape === 2 ? randomLetters(8 + (i % 7)) : `${pick(WORDS)}-${pick(WORDS)}-${randomLetters(3)}`;
  const sub = i % 5 === 0 ? `${pick(WORDS)}.` : "";
  return `${sub}${base}${i.toString(36)}.${pick(TLDS)}`;
}

const SOURCES = ["feed-phishtank", "feed-openphish", "feed-urlhaus", "feed-cryptoscamdb", "feed-community", "ofac-sdn", "svc-curated"];
const LABELS = ["phishing", "scam", "malware", "drainer", "fake exchange", "sanctioned", "impersonation"];
const isoDay = (d: number): string => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000).toISOString();

/** `entries` synthetic block-list records: 85 % domains, 10 % EVM wallets, 5 % e-mail addresses. */
export function generate(entries: number): IntelRecord[] {
  const out: IntelRecord[] = new Array<IntelRecord>(entries);
  for (let i = 0; i < entries; i++) {
    const r = i % 20; // 85 % domains, 10 % wallets, 5 % e-mail addresses
    const type = r < 17 ? "domain" : r < 19 ? "wallet" : "email";
    const value = type === "domain" ? syntheticDomain(i) : type === "wallet" ? `0x${randomHex(40)}` : `${pick(WORDS)}.${randomLetters(6)}${i.toString(36)}@${pick(["gmail.com", "outlook.com", "proton.me", "yahoo.com", syntheticDomain(i + 7)])}`;
    out[i] = { type, value: flat(value), list: "block", label: type === "wallet" ? pick(["scam", "drainer", "sanctioned"]) : pick(LABELS), source: pick(SOURCES), added_at: isoDay(Math.floor(rand() * 700)) };
  }
  return out;
}

const BRANDISH = ["paypa1.com", "metamask-io.claim-airdrop.xyz", "secure-binance-login.top", "coinbase-support.help", "app-uniswap.org", "opensea-nft.site", "myetherwalIet.com", "ledger-live-update.com"];

/**
 * 20,000 domain queries: 10 % listed (taken from `listed`), 5 % brand look-alikes, the rest unknown
 * names (`fresh`, drawn after the `entries` records, never listed). Returns both.
 */
export function domainQueries(listed: readonly string[], entries: number): { domains: string[]; fresh: string[] } {
  const fresh = Array.from({ length: 20_000 }, (_, i) => syntheticDomain(entries * 3 + i));
  const domains = Array.from({ length: 20_000 }, (_, i) => (i % 10 === 0 ? (listed[i % listed.length] as string) : i % 20 === 1 ? (BRANDISH[Math.floor(i / 20) % BRANDISH.length] as string) : (fresh[i] as string)));
  return { domains, fresh };
}
