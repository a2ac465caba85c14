import { collationCompare } from "./collation.js";
import { hostAndParents, hostOf } from "../entities/host.js";
import { ENTITY_TYPES, type Entity, type EntityType } from "../entities/types.js";
import type { IntelList, IntelMatch, IntelRecord, SyncIntelStore } from "../ports/intel.js";
import { hashString, StringFilter } from "./string-filter.js";

const DAY_MS = 86_400_000;
const EPOCH_DAY = Date.UTC(2000, 0, 1) / DAY_MS;
/** Values the smallest filter is sized for; it doubles as values are added. */
const FILTER_MIN = 1024;
const TYPE_INDEX: ReadonlyMap<EntityType, number> = new Map(ENTITY_TYPES.map((t, i) => [t, i]));

/**
 * Allow/block lists in memory, compact enough for a million entries: one `Map<value, slot>` and
 * typed arrays per slot (list, type, source, label, day added), with sources and labels interned.
 * Lookup is O(labels): the entity, then its host and each parent domain by whole labels.
 */
export class InMemoryIntelIndex implements SyncIntelStore {
  private readonly slots = new Map<string, number>();
  /**
   * Every value in `slots`. Most values screened (and most parent domains of their hosts) are
   * on no list; the filter says so without a lookup in a map of a million entries, which misses
   * the processor's caches several times per lookup. Rebuilt at twice the size when full.
   */
  private filter = StringFilter.forCount(FILTER_MIN);
  private filterCapacity = FILTER_MIN;
  /** More than one record for one value (an allow and a block from different sources). */
  private readonly extra = new Map<number, number[]>();
  private meta = new Uint32Array(1024); // bit 0 list, bits 1–3 type, bits 4–17 source, bits 18–31 label
  private days = new Uint16Array(1024);
  private count = 0;
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly newest = new Map<string, number>();
  /** `versionSync()`'s answer until the next write: screening asks for it on every check. */
  private versionText: string | null = null;
  /** The data-set version of sources whose records carry one (bundled lists), by source name. */
  private readonly sourceVersions = new Map<string, string>();

  static from(records: Iterable<IntelRecord>): InMemoryIntelIndex {
    const index = new InMemoryIntelIndex();
    index.addAll(records);
    return index;
  }

  get size(): number {
    return this.count;
  }

  addAll(records: Iterable<IntelRecord>): { added: number; updated: number } {
    let added = 0;
    let updated = 0;
    for (const r of records) {
      if (this.put(r)) added++;
      else updated++;
    }
    return { added, updated };
  }

  async upsert(records: readonly IntelRecord[]): Promise<{ added: number; updated: number }> {
    return this.addAll(records);
  }

  async lookup(entity: Entity): Promise<readonly IntelMatch[]> {
    return this.lookupSync(entity);
  }

  lookupSync(entity: Pick<Entity, "type" | "value" | "attributes">): IntelMatch[] {
    const out: IntelMatch[] = [];
    if (entity.type !== "domain") this.collect(entity.value, entity.type, "exact", out);
    const host = hostOf(entity);
    if (host) {
      const registered = typeof entity.attributes.registered_domain === "string" ? entity.attributes.registered_domain : null;
      for (const h of hostAndParents(host, registered)) {
        this.collect(h, "domain", entity.type === "domain" && h === host ? "exact" : "parent", out);
      }
    }
    return out;
  }

  async version(): Promise<string> {
    return this.versionSync();
  }

  versionSync(): string {
    if (this.versionText === null) {
      const named = new Map<string, string>(this.sourceVersions);
      for (const [s, d] of this.newest) if (!named.has(s)) named.set(s, dayToIso(d).slice(0, 10));
      const parts = [...named.entries()].sort(([a], [b]) => collationCompare(a, b)).map(([s, v]) => `${s}@${v}`);
      this.versionText = parts.length > 0 ? parts.join(",") : "empty";
    }
    return this.versionText;
  }

  private collect(value: string, type: EntityType, matchedOn: "exact" | "parent", out: IntelMatch[]): void {
    if (!this.filter.mayContainHash(hashString(value))) return;
    const slot = this.slots.get(value);
    if (slot === undefined) return;
    this.match(slot, value, type, matchedOn, out);
    const extra = this.extra.get(slot);
    if (extra) for (const s of extra) this.match(s, value, type, matchedOn, out);
  }

  private match(slot: number, value: string, type: EntityType, matchedOn: "exact" | "parent", out: IntelMatch[]): void {
    const m = this.meta[slot] as number;
    if (ENTITY_TYPES[(m >>> 1) & 7] !== type) return;
    const day = this.days[slot] as number;
    const list: IntelList = m & 1 ? "block" : "allow";
    const source = this.names[(m >>> 4) & 0x3fff] as string;
    const label = this.names[(m >>> 18) & 0x3fff] as string;
    // Four literal shapes rather than spreads (a spread copies property by property on every match).
    const version = this.sourceVersions.get(source);
    if (version) {
      out.push(day === 0
        ? { type, value, list, source, label, version, matched_on: matchedOn, matched_value: value }
        : { type, value, list, source, label, version, added_at: dayToIso(day), matched_on: matchedOn, matched_value: value });
    } else {
      out.push(day === 0
        ? { type, value, list, source, label, matched_on: matchedOn, matched_value: value }
        : { type, value, list, source, label, added_at: dayToIso(day), matched_on: matchedOn, matched_value: value });
    }
  }

  private intern(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      if (id > 0x3fff) throw new RangeError("too many distinct intel sources or labels (max 16384)");
      this.names.push(name);
      this.nameIds.set(name, id);
    }
    return id;
  }

  /** Adds or replaces a record; true when it was new. Same value + type + list + source replaces. */
  private put(r: IntelRecord): boolean {
    const typeIdx = TYPE_INDEX.get(r.type) ?? 0;
    const meta = ((r.list === "block" ? 1 : 0) | (typeIdx << 1) | (this.intern(r.source) << 4) | (this.intern(r.label) << 18)) >>> 0;
    const day = r.added_at ? Math.max(1, Math.min(0xffff, Math.floor(Date.parse(r.added_at) / DAY_MS - EPOCH_DAY))) : 0;
    this.versionText = null;
    if (r.version) this.sourceVersions.set(r.source, r.version);
    if (r.added_at && Number.isFinite(day)) this.newest.set(r.source, Math.max(this.newest.get(r.source) ?? 0, day));
    const existing = this.slots.get(r.value);
    if (existing !== undefined) {
      // Same list, type and source (bits 0–17) means the same statement: replace it.
      const same = (s: number): boolean => ((this.meta[s] as number) & 0x3ffff) === (meta & 0x3ffff);
      const all = [existing, ...(this.extra.get(existing) ?? [])];
      const hit = all.find(same);
      if (hit !== undefined) {
        this.meta[hit] = meta;
        this.days[hit] = Number.isFinite(day) ? day : 0;
        return false;
      }
      const slot = this.allocate(meta, day);
      this.extra.set(existing, [...(this.extra.get(existing) ?? []), slot]);
      return true;
    }
    this.slots.set(r.value, this.allocate(meta, day));
    this.addToFilter(r.value);
    return true;
  }

  private addToFilter(value: string): void {
    if (this.slots.size <= this.filterCapacity) {
      this.filter.add(value);
      return;
    }
    // Full: a filter for twice as many values, from every value stored (this one included).
    while (this.filterCapacity < this.slots.size) this.filterCapacity *= 2;
    this.filter = StringFilter.forCount(this.filterCapacity);
    for (const v of this.slots.keys()) this.filter.add(v);
  }

  private allocate(meta: number, day: number): number {
    if (this.count === this.meta.length) {
      const meta = new Uint32Array(this.meta.length * 2);
      meta.set(this.meta);
      this.meta = meta;
      const days = new Uint16Array(this.days.length * 2);
      days.set(this.days);
      this.days = days;
    }
    this.meta[this.count] = meta;
    this.days[this.count] = Number.isFinite(day) ? day : 0;
    return this.count++;
  }
}

/** Days are few (at most 65,535) and lookups repeat them: each is formatted once. */
const isoByDay = new Map<number, string>();
function dayToIso(day: number): string {
  let iso = isoByDay.get(day);
  if (iso === undefined) {
    iso = new Date((day + EPOCH_DAY) * DAY_MS).toISOString();
    isoByDay.set(day, iso);
  }
  return iso;
}
