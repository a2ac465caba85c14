import type { DataSource } from "typeorm";
import { hostAndParents, hostOf, sameAccountAddresses, type Entity, type IntelMatch, type IntelRecord, type IntelStore } from "@svc/core";
import type { IntelRow } from "../entities/intel.js";
import { rawQuery } from "./raw-sql.js";
import { iso } from "./sql.js";

const UPSERT_CHUNK = 1_000;

export class TypeOrmIntelStore implements IntelStore {
  /** The per-check lookup as a prepared statement on a raw session (decisions 0044, 0094). */
  private readonly raw: ReturnType<typeof rawQuery>;

  constructor(private readonly ds: DataSource) {
    this.raw = rawQuery(ds);
  }

  async lookup(entity: Entity): Promise<readonly IntelMatch[]> {
    return (await this.lookupMany([entity]))[0] ?? [];
  }

  /** `lookup` for many entities in one query; one result per entity, in order. */
  async lookupMany(entities: readonly Entity[]): Promise<(readonly IntelMatch[])[]> {
    const perEntity = entities.map(candidatesOf);
    const all = perEntity.flat();
    if (all.length === 0) return entities.map(() => []);
    const rows = (await this.raw(
      "svc_intel_lookup",
      `SELECT i.* FROM intel_records i
         JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS c(type, value) ON i.type = c.type AND i.value = c.value`,
      [all.map((c) => c.type), all.map((c) => c.value)],
    )) as IntelRow[];
    const byKey = new Map<string, IntelRow[]>();
    for (const r of rows) {
      const k = `${r.type}:${r.value}`;
      const list = byKey.get(k);
      if (list) list.push(r);
      else byKey.set(k, [r]);
    }
    for (const list of byKey.values()) list.sort((a, b) => cmp(a.list, b.list) || cmp(a.source, b.source));
    return perEntity.map((candidates) => {
      const out: IntelMatch[] = [];
      for (const c of candidates) {
        for (const r of byKey.get(`${c.type}:${c.value}`) ?? []) out.push({ ...toRecord(r), matched_on: c.on, matched_value: c.value });
      }
      return out;
    });
  }

  async upsert(records: readonly IntelRecord[]): Promise<{ added: number; updated: number }> {
    // A record repeated within one call counts as an update of the first, as the in-memory index does.
    const unique = new Map<string, IntelRecord>();
    let repeated = 0;
    for (const r of records) {
      const key = `${r.type}\u0000${r.value}\u0000${r.list}\u0000${r.source}`;
      if (unique.has(key)) repeated++;
      unique.set(key, r);
    }
    const all = [...unique.values()];
    let added = 0;
    let updated = repeated;
    for (let i = 0; i < all.length; i += UPSERT_CHUNK) {
      const chunk = all.slice(i, i + UPSERT_CHUNK);
      const rows = (await this.ds.manager.query(
        `INSERT INTO intel_records (type, value, list, source, label, added_at, updated_at)
         SELECT u.*, now() FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS u
         ON CONFLICT (type, value, list, source) DO UPDATE
            SET label = EXCLUDED.label, added_at = EXCLUDED.added_at, updated_at = EXCLUDED.updated_at
         RETURNING (xmax = 0) AS inserted`,
        [
          chunk.map((r) => r.type), chunk.map((r) => r.value), chunk.map((r) => r.list), chunk.map((r) => r.source),
          chunk.map((r) => r.label), chunk.map((r) => (r.added_at ? iso(r.added_at) : null)),
        ],
      )) as { inserted: boolean }[];
      for (const r of rows) {
        if (r.inserted) added++;
        else updated++;
      }
    }
    return { added, updated };
  }

  async version(): Promise<string> {
    const rows = (await this.ds.manager.query(
      `SELECT source, max(added_at) AS newest FROM intel_records WHERE added_at IS NOT NULL GROUP BY source`,
    )) as { source: string; newest: Date }[];
    if (rows.length === 0) return "empty";
    return rows
      .map((r) => ({ source: r.source, day: iso(r.newest).slice(0, 10) }))
      .sort((a, b) => a.source.localeCompare(b.source))
      .map((r) => `${r.source}@${r.day}`)
      .join(",");
  }
}

/**
 * The entity itself (and, for a Substrate address, the same account on the other main networks), then its host and each parent domain by whole labels (never a substring:
 * evil.com matches a.b.evil.com, not notevil.com), down to the registrable domain.
 */
function candidatesOf(entity: Entity): { type: string; value: string; on: "exact" | "parent" }[] {
  const candidates: { type: string; value: string; on: "exact" | "parent" }[] = [];
  if (entity.type !== "domain") candidates.push({ type: entity.type, value: entity.value, on: "exact" });
  // A Substrate account is the same account in every network's spelling (Polkadot, Kusama, generic).
  if (entity.type === "wallet") {
    for (const a of sameAccountAddresses(entity.attributes)) if (a !== entity.value) candidates.push({ type: "wallet", value: a, on: "exact" });
  }
  const host = hostOf(entity);
  if (host) {
    const registered = typeof entity.attributes.registered_domain === "string" ? entity.attributes.registered_domain : null;
    for (const h of hostAndParents(host, registered)) {
      candidates.push({ type: "domain", value: h, on: entity.type === "domain" && h === host ? "exact" : "parent" });
    }
  }
  return candidates;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function toRecord(r: IntelRow): IntelRecord {
  const base = { type: r.type, value: r.value, list: r.list, label: r.label, source: r.source, ...(r.version ? { version: r.version } : {}) };
  return r.added_at ? { ...base, added_at: iso(r.added_at) } : base;
}
