import { randomIds, screenEntity, type Clock, type IdGenerator, type IntelStore, type ScreeningDeps } from "@svc/core";
import type { ScreeningPort } from "@svc/bot-kernel";
import { buildReputationProviders, databaseScreeningDeps, type ProviderSettings, type ResilientProvider } from "@svc/persistence";
import type { DataSource } from "typeorm";

export interface ScreeningOptions {
  readonly clock: Clock;
  readonly ids?: IdGenerator;
  /** The intel store to read (default: bundled brand domains plus the database's lists). */
  readonly intel?: IntelStore;
  /** Outside reputation providers (SVC_PROVIDERS), their answers cached in the database. */
  readonly providers?: readonly ResilientProvider[];
  /** How long a check waits for each outside source (SVC_SOURCE_TIMEOUT_MS). */
  readonly sourceTimeoutMs?: number;
}

/**
 * The one screening composition on a database, for every process that screens: the API's
 * synchronous checks, the worker's asynchronous ones, `svc` locally and the chat bots. A verdict
 * is the same wherever it is asked for.
 */
export function screeningDeps(ds: DataSource, o: ScreeningOptions): ScreeningDeps {
  return {
    ...databaseScreeningDeps(ds, { clock: o.clock, ids: o.ids ?? randomIds(o.clock), ...(o.intel ? { intel: o.intel } : {}) }),
    ...(o.sourceTimeoutMs !== undefined ? { sourceTimeoutMs: o.sourceTimeoutMs } : {}),
    ...(o.providers && o.providers.length > 0 ? { providers: [...o.providers] } : {}),
  };
}

/** The outside reputation providers a configuration turns on (none by default). */
export function reputationProviders(settings: ProviderSettings, ds: DataSource, clock: Clock): ResilientProvider[] {
  return buildReputationProviders(settings, { dataSource: ds, clock });
}

/** The chat bots' screening port over the same composition. */
export function screeningPort(deps: ScreeningDeps): ScreeningPort {
  return {
    screen: async (value) => {
      const r = await screenEntity({ entity_value: value }, deps);
      return r.ok ? r.verdict : { error: r.error };
    },
  };
}
