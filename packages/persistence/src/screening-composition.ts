import {
  combineIntelStores, defaultImpersonationIndex, defaultReference, InMemoryIntelIndex, officialIntel,
  type Clock, type IdGenerator, type IntelStore, type ScreeningDeps,
} from "@svc/core";
import type { DataSource } from "typeorm";
import { CoalescedGraphProximity, CoalescedIntel, CoalescedReportEvidence } from "./coalesced.js";
import { TypeOrmGraphRepository } from "./repositories/typeorm-graph-repository.js";
import { TypeOrmIntelStore } from "./repositories/typeorm-intel-store.js";
import { TypeOrmReportRepository } from "./repositories/typeorm-report-repository.js";

/**
 * The one screening composition on a database, shared by the API and the chat bots so a verdict
 * is the same wherever it is asked for: bundled reference data, official brand domains (in
 * memory) together with the lists `svc intel import` stored, moderated community reports
 * (`/v1/report` and the bots' `/report`), and the entity graph. Reads are coalesced across
 * concurrent checks.
 */
export function databaseIntel(ds: DataSource): IntelStore {
  return combineIntelStores(InMemoryIntelIndex.from(officialIntel()), new CoalescedIntel(new TypeOrmIntelStore(ds)));
}

export function databaseScreeningDeps(ds: DataSource, o: { readonly intel?: IntelStore; readonly clock: Clock; readonly ids: IdGenerator }): ScreeningDeps {
  return {
    reference: defaultReference(),
    impersonation: defaultImpersonationIndex(),
    intel: o.intel ?? databaseIntel(ds),
    clock: o.clock,
    ids: o.ids,
    reports: new CoalescedReportEvidence(new TypeOrmReportRepository(ds)),
    graph: new CoalescedGraphProximity(new TypeOrmGraphRepository(ds)),
  };
}
