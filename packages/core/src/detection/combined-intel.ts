import type { Entity } from "../entities/types.js";
import type { IntelMatch, IntelRecord, IntelStore } from "../ports/intel.js";

/**
 * Several intel stores read as one: e.g. the bundled official-domain allowlist (in memory) and
 * the lists imported into the database. Writes go to the last store (the writable one).
 */
export function combineIntelStores(...stores: readonly IntelStore[]): IntelStore {
  const writable = stores[stores.length - 1];
  if (!writable) throw new RangeError("combineIntelStores needs at least one store");
  return {
    async lookup(entity: Entity): Promise<readonly IntelMatch[]> {
      const all = await Promise.all(stores.map((s) => s.lookup(entity)));
      return all.flat();
    },
    upsert: (records: readonly IntelRecord[]) => writable.upsert(records),
    async version(): Promise<string> {
      return (await Promise.all(stores.map((s) => s.version()))).join("+");
    },
  };
}
