import type { Brand } from "@svc/intel";
import type { DomainModel } from "./model/domain-model.js";
import type { PlatformTable } from "./platform-paths.js";
import type { SourceRef } from "./types.js";

/**
 * Everything the pure detectors read besides the entity: lists and tables, each with the
 * version recorded in verdicts. Built once at start-up (see `defaultReference()` in screener.ts).
 */
export interface ReferenceData {
  readonly versions: Readonly<Record<string, string>>;
  readonly suspiciousTlds: ReadonlyMap<string, { readonly weight: number; readonly rationale: string }>;
  readonly keywords: ReadonlyMap<string, { readonly weight: number; readonly category: string }>;
  readonly shorteners: ReadonlySet<string>;
  /** Crypto asset names and tickers ("eth", "bitcoin") → the asset they name. */
  readonly cryptoAssets: ReadonlyMap<string, string>;
  /** Ordinary words that begin or end with a crypto term without naming it ("ethics", "together"). */
  readonly cryptoFalseFriends: ReadonlySet<string>;
  /** Wallet-drainer naming: what a drainer wants connected ("wallet", "dapp") and the made-up step ("sync", "rectify"). */
  readonly walletLures: { readonly objects: readonly string[]; readonly actions: readonly string[] };
  /** Common English words (for telling an ordinary word from words run together). */
  readonly englishWords: ReadonlySet<string>;
  /** Free hosts whose users get sub-domains (beyond the Public Suffix List's private section) → rationale. */
  readonly freeHosting: ReadonlyMap<string, string>;
  readonly disposableEmail: ReadonlySet<string>;
  readonly freeEmail: ReadonlySet<string>;
  /** Brand tokens (distinctive only) → brand, for brand names in e-mail local parts. */
  readonly brandTokens: ReadonlyMap<string, Brand>;
  /** Official registrable domains → brand (for brands shown in URL userinfo). */
  readonly officialDomains: ReadonlyMap<string, Brand>;
  /** Brand-owned domains where anyone can publish (t.me, github.io …): never allowlisted. */
  readonly userContentDomains: ReadonlySet<string>;
  /** Open redirectors, user-content paths and brands' short domains (platform-paths.ts). */
  readonly platforms: PlatformTable;
  /** Addresses that look-alikes imitate (exchange hot wallets, the account's own …). */
  readonly protectedAddresses: readonly { readonly address: string; readonly label: string }[];
  /** Registrable domains of the web's most-linked sites: their own names never score high (decision 0051). */
  readonly popularSites: ReadonlySet<string>;
  /** The learned domain model (decision 0023); null where none is loaded. */
  readonly domainModel: DomainModel | null;
}

export const source = (ref: ReferenceData, name: string): SourceRef => ({ name, version: ref.versions[name] ?? "unknown" });
