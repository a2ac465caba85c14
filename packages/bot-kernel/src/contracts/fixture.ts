import type { ExpectStatic, SuiteAPI, TestAPI } from "vitest";
import type { MemberDirectory, PaymentLedger, StatsStore, SupportDesk, SupportInbox } from "../ports.js";
import type { SettingsStore } from "../settings.js";

/**
 * The test functions a suite declares its cases with. Passed in by the caller (`{ describe, it,
 * expect }` from vitest) rather than imported, so that these suites can ship in the package's
 * entry point without making vitest a runtime dependency of the bots.
 */
export interface TestApi {
  readonly describe: SuiteAPI;
  readonly it: TestAPI;
  readonly expect: ExpectStatic;
}

/** The kernel's durable stores for one platform. */
export interface BotStores {
  readonly settings: SettingsStore;
  readonly stats: StatsStore;
  readonly members: MemberDirectory;
  readonly ledger: PaymentLedger;
  /** The bots' side (tickets in, answers out) and the operator's (list, read, answer). */
  readonly support: SupportDesk & SupportInbox;
}

export interface BotStoreFixture {
  /** The stores of one platform. Every call of one fixture shares the same storage (one database, or one set of maps). */
  stores(platform: string): BotStores;
  /** Everything kept, as text: every row of every table, or every map. Privacy checks search it. */
  dump(): Promise<string>;
}

/**
 * Makes a fixture. Database fixtures may share one database between tests and runs: the suites
 * use fresh random chat ids, user ids and charge ids in every test, so they never need cleaning.
 */
export type MakeBotStores = () => Promise<BotStoreFixture>;

/** A fresh id for this test, e.g. `chat-3f2a…` (random, so tests sharing a database never collide). */
export const fresh = (prefix: string): string => `${prefix}-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;

export const PLATFORM = "contract";
export const T0 = new Date("2026-03-02T09:00:00.000Z");
export const at = (minutes: number): Date => new Date(T0.getTime() + minutes * 60_000);
