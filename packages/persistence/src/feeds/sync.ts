import { parseEntity, type Clock, type EntityType } from "@svc/core";
import {
  parseEthPhishingDetect, parseHostsFile, parseIntelCsv, parseOfacSdn, parsePlainList, parsePolkadotJsAddresses, parsePolkadotJsAll,
  type ImportResult,
} from "@svc/intel";
import { feedSyncErrors } from "@svc/metrics";
import type { DataSource, EntityManager } from "typeorm";
import type { IntelFeedRow } from "../entities/intel.js";
import type { FeedDefinition } from "./config.js";
import { FeedError, fetchFeed, type FetchOptions } from "./fetch.js";

/** Entries of feed `name` are stored with this source (never mixed with lists imported by hand). */
export const feedSource = (name: string): string => `feed:${name}`;

export interface FeedSyncResult {
  readonly feed: string;
  /**
   * loaded: new content replaced the feed's entries; unchanged: same content as last time;
   * not_modified: the server answered 304; failed: nothing changed, see `error`; skipped: not due.
   */
  readonly status: "loaded" | "unchanged" | "not_modified" | "failed" | "skipped";
  readonly version: string | null;
  /** Entries the feed holds now (after the sync; the old count when it failed). */
  readonly entries: number;
  readonly added: number;
  readonly removed: number;
  readonly unchanged: number;
  /** Lines or entries left out (bad values, duplicates, addresses of unsupported chains). */
  readonly skipped: number;
  /** The first few of them, with why. */
  readonly skipped_sample: readonly string[];
  readonly error?: { readonly code: string; readonly message: string };
}

export interface FeedSyncOptions extends FetchOptions {
  readonly clock: Clock;
  /** Receives one line per feed synced (pino-shaped). */
  readonly log?: (level: "info" | "warn", obj: Record<string, unknown>, msg: string) => void;
}

interface Row {
  readonly type: EntityType;
  readonly value: string;
  readonly list: "allow" | "block";
  readonly label: string;
}

const STAGE_CHUNK = 5_000;
const SAMPLE = 10;

/**
 * Live feeds into `intel_records`: fetch (conditionally), parse with the @svc/intel importer of
 * the feed's format, canonicalise every entry like a checked entity, and replace the feed's
 * entries in one transaction, so readers see the old list or the new one, never a mix. A feed
 * that cannot be fetched or parsed keeps its old entries and records the error.
 */
export class FeedSync {
  constructor(
    private readonly ds: DataSource,
    private readonly feeds: readonly FeedDefinition[],
    private readonly opts: FeedSyncOptions,
  ) {}

  get definitions(): readonly FeedDefinition[] {
    return this.feeds;
  }

  /**
   * State of every configured feed (null for one never synced), in configuration order, then of
   * feeds no longer configured whose entries are still stored (`definition` null; see `remove`).
   */
  async status(): Promise<{ definition: FeedDefinition | null; state: IntelFeedRow | null }[]> {
    const rows = (await this.ds.manager.query(`SELECT * FROM intel_feeds ORDER BY name`)) as IntelFeedRow[];
    const byName = new Map(rows.map((r) => [r.name, r]));
    const configured = this.feeds.map((d) => ({ definition: d as FeedDefinition | null, state: byName.get(d.name) ?? null }));
    const names = new Set(this.feeds.map((f) => f.name));
    return [...configured, ...rows.filter((r) => !names.has(r.name)).map((r) => ({ definition: null, state: r }))];
  }

  /** Deletes a feed's entries and state in one transaction (a feed taken out of SVC_FEEDS keeps them until then); the entries deleted. */
  async remove(name: string): Promise<number> {
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`svc.intel_feed:${name}`]);
      const [d] = (await m.query(`WITH d AS (DELETE FROM intel_records WHERE source = $1 RETURNING 1) SELECT count(*)::int AS n FROM d`, [feedSource(name)])) as { n: number }[];
      const [f] = (await m.query(`WITH f AS (DELETE FROM intel_feeds WHERE name = $1 RETURNING 1) SELECT count(*)::int AS n FROM f`, [name])) as { n: number }[];
      if ((d?.n ?? 0) === 0 && (f?.n ?? 0) === 0) throw new RangeError(`no feed named ${name} has anything stored`);
      return d?.n ?? 0;
    });
  }

  /**
   * Syncs the feeds (all, or those named), one after another. `force` ignores the validators of
   * the last response. `dueAfterMs`: skip a feed checked (by any process) less than that ago.
   */
  async syncAll(options: { only?: readonly string[]; force?: boolean; dueAfterMs?: number } = {}): Promise<FeedSyncResult[]> {
    const unknown = (options.only ?? []).filter((n) => !this.feeds.some((f) => f.name === n));
    if (unknown.length > 0) throw new RangeError(`no feed named ${unknown.join(", ")} is configured (configured: ${this.feeds.map((f) => f.name).join(", ") || "none"})`);
    const out: FeedSyncResult[] = [];
    for (const def of this.feeds) {
      if (options.only && !options.only.includes(def.name)) continue;
      out.push(await this.syncOne(def, options.force === true, options.dueAfterMs));
    }
    return out;
  }

  async syncOne(def: FeedDefinition, force = false, dueAfterMs?: number): Promise<FeedSyncResult> {
    const now = this.opts.clock.now();
    const state = await this.state(def.name);
    const base = { feed: def.name, version: state?.version ?? null, entries: state?.entries ?? 0, added: 0, removed: 0, unchanged: 0, skipped: 0, skipped_sample: [] };
    if (dueAfterMs !== undefined && state?.checked_at && now.getTime() - state.checked_at.getTime() < dueAfterMs) return { ...base, status: "skipped" };
    // Validators only hold for the same URL and format.
    const sameFeed = state !== null && state.url === def.url && state.format === def.format && state.entries > 0;
    const result = await this.load(def, sameFeed && !force ? state : null, sameFeed ? state : null, now).catch(async (e: unknown) => {
      const error = e instanceof FeedError ? { code: e.code, message: e.message } : { code: "feed.failed", message: e instanceof Error ? e.message : String(e) };
      feedSyncErrors.inc({ feed: def.name });
      await this.recordFailure(def, now, error.message).catch(() => undefined);
      return { ...base, status: "failed" as const, error };
    });
    this.opts.log?.(result.status === "failed" ? "warn" : "info", { ...result, skipped_sample: undefined }, result.status === "failed" ? "feed sync failed; old entries kept" : "feed synced");
    return result;
  }

  private async load(def: FeedDefinition, validators: IntelFeedRow | null, previous: IntelFeedRow | null, now: Date): Promise<FeedSyncResult> {
    const fetched = await fetchFeed(def, validators, this.opts);
    const keep = { feed: def.name, version: previous?.version ?? null, entries: previous?.entries ?? 0, added: 0, removed: 0, unchanged: previous?.entries ?? 0, skipped: 0, skipped_sample: [] };
    if (fetched.notModified) {
      await this.ds.manager.query(`UPDATE intel_feeds SET checked_at = $2, last_error = NULL WHERE name = $1`, [def.name, now]);
      return { ...keep, status: "not_modified" };
    }
    if (previous && previous.content_sha256 === fetched.sha256) {
      await this.ds.manager.query(`UPDATE intel_feeds SET checked_at = $2, last_error = NULL, etag = $3, last_modified = $4 WHERE name = $1`, [def.name, now, fetched.etag, fetched.lastModified]);
      return { ...keep, status: "unchanged" };
    }
    const { rows, skipped, dataDate } = parseFeed(def, fetched.text);
    const version = `${dataDate ?? now.toISOString().slice(0, 10)}.${fetched.sha256.slice(0, 12)}`;
    const counts = await this.ds.transaction((m) => this.replace(m, def, rows, version, now, fetched));
    const result: FeedSyncResult = {
      feed: def.name, status: "loaded", version, entries: rows.length, ...counts,
      skipped: skipped.length, skipped_sample: skipped.slice(0, SAMPLE),
    };
    await this.ds.manager.query(`UPDATE intel_feeds SET last_result = $2 WHERE name = $1`, [def.name, JSON.stringify(result)]);
    return result;
  }

  /** The atomic replace: stage the new entries, delete what left, insert what came, in one transaction. */
  private async replace(m: EntityManager, def: FeedDefinition, rows: readonly Row[], version: string, now: Date, fetched: { sha256: string; etag: string | null; lastModified: string | null }): Promise<{ added: number; removed: number; unchanged: number }> {
    // One sync of a feed at a time across processes (a second waits, then finds it done or redoes it whole).
    await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`svc.intel_feed:${def.name}`]);
    await m.query(`CREATE TEMP TABLE feed_stage (type text COLLATE "C" NOT NULL, value text COLLATE "C" NOT NULL, list text COLLATE "C" NOT NULL, label text NOT NULL) ON COMMIT DROP`);
    for (let i = 0; i < rows.length; i += STAGE_CHUNK) {
      const chunk = rows.slice(i, i + STAGE_CHUNK);
      await m.query(`INSERT INTO feed_stage SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])`, [
        chunk.map((r) => r.type), chunk.map((r) => r.value), chunk.map((r) => r.list), chunk.map((r) => r.label),
      ]);
    }
    const source = feedSource(def.name);
    const [removed] = (await m.query(
      `WITH d AS (
         DELETE FROM intel_records r WHERE r.source = $1
            AND NOT EXISTS (SELECT 1 FROM feed_stage s WHERE s.type = r.type AND s.value = r.value AND s.list = r.list)
         RETURNING 1)
       SELECT count(*)::int AS n FROM d`,
      [source],
    )) as { n: number }[];
    // added_at and version of an entry stay those of the sync it first came in.
    const [added] = (await m.query(
      `WITH i AS (
         INSERT INTO intel_records (type, value, list, source, label, added_at, updated_at, version)
         SELECT s.type, s.value, s.list, $1, s.label, $2, $2, $3 FROM feed_stage s
         ON CONFLICT (type, value, list, source) DO UPDATE SET label = EXCLUDED.label, updated_at = EXCLUDED.updated_at
            WHERE intel_records.label IS DISTINCT FROM EXCLUDED.label
         RETURNING (xmax = 0) AS inserted)
       SELECT count(*) FILTER (WHERE inserted)::int AS n FROM i`,
      [source, now, version],
    )) as { n: number }[];
    await m.query(
      `INSERT INTO intel_feeds (name, url, format, etag, last_modified, version, content_sha256, entries, synced_at, checked_at, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, NULL)
       ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, format = EXCLUDED.format, etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified,
         version = EXCLUDED.version, content_sha256 = EXCLUDED.content_sha256, entries = EXCLUDED.entries, synced_at = EXCLUDED.synced_at,
         checked_at = EXCLUDED.checked_at, last_error = NULL`,
      [def.name, def.url, def.format, fetched.etag, fetched.lastModified, version, fetched.sha256, rows.length, now],
    );
    const a = added?.n ?? 0;
    return { added: a, removed: removed?.n ?? 0, unchanged: rows.length - a };
  }

  private async state(name: string): Promise<IntelFeedRow | null> {
    const rows = (await this.ds.manager.query(`SELECT * FROM intel_feeds WHERE name = $1`, [name])) as IntelFeedRow[];
    return rows[0] ?? null;
  }

  private async recordFailure(def: FeedDefinition, now: Date, message: string): Promise<void> {
    await this.ds.manager.query(
      `INSERT INTO intel_feeds (name, url, format, entries, checked_at, last_error) VALUES ($1, $2, $3, 0, $4, $5)
       ON CONFLICT (name) DO UPDATE SET checked_at = EXCLUDED.checked_at, last_error = EXCLUDED.last_error`,
      [def.name, def.url, def.format, now, message],
    );
  }
}

/**
 * Parses a feed and canonicalises its entries. A problem with the whole input (invalid JSON or
 * XML, a missing CSV column), no usable entry, or more entries refused than taken (the wrong
 * format, an error page) is a FeedError: such a feed replaces nothing.
 */
export function parseFeed(def: FeedDefinition, text: string): { rows: Row[]; skipped: string[]; dataDate: string | null } {
  const source = feedSource(def.name);
  const common = { source, ...(def.type ? { type: def.type } : {}), ...(def.label ? { label: def.label } : {}) };
  const withList = { ...common, list: def.list ?? "block" };
  const plain = { source, ...(def.label ? { label: def.label } : {}) };
  let parsed: ImportResult;
  let dataDate: string | null = null;
  switch (def.format) {
    case "plain": parsed = parsePlainList(text, withList); break;
    case "hosts": parsed = parseHostsFile(text, withList); break;
    case "csv": parsed = parseIntelCsv(text, withList); break;
    case "eth-phishing-detect": parsed = parseEthPhishingDetect(text, common); break;
    case "polkadot-js-all": parsed = parsePolkadotJsAll(text, common); break;
    case "polkadot-js-address": parsed = parsePolkadotJsAddresses(text, plain); break;
    case "ofac-sdn": {
      const r = parseOfacSdn(text, plain);
      parsed = r;
      const m = r.publishDate ? /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(r.publishDate) : null;
      if (m) dataDate = `${m[3]}-${m[1]!.padStart(2, "0")}-${m[2]!.padStart(2, "0")}`;
      break;
    }
  }
  // Line 0 is the whole input, except in address.json, where it is also one site's entry.
  const whole = parsed.skipped.find((s) => s.line === 0 && (def.format !== "polkadot-js-address" || /^(?:invalid JSON|expected a JSON object)/.test(s.reason)));
  if (whole) throw new FeedError("feed.malformed", `not a valid ${def.format} feed: ${whole.reason}`);
  if (parsed.skipped.length > parsed.records.length) {
    const first = parsed.skipped[0]!;
    throw new FeedError("feed.malformed", `not a valid ${def.format} feed: ${parsed.skipped.length} entries refused, ${parsed.records.length} taken (first: line ${first.line}: ${first.reason})`);
  }
  const skipped = parsed.skipped.map((s) => `line ${s.line}: ${s.reason}`);
  const rows = new Map<string, Row>();
  for (const r of parsed.records) {
    const p = parseEntity(r.value, r.type ? { type: r.type } : {});
    if (!p.ok) {
      skipped.push(`${JSON.stringify(r.value.slice(0, 100))}: ${p.error.message}`);
      continue;
    }
    const key = `${r.list}\u0000${p.entity.type}\u0000${p.entity.value}`;
    if (rows.has(key)) continue;
    rows.set(key, { type: p.entity.type, value: p.entity.value, list: r.list, label: r.label ?? `${r.list === "block" ? "listed" : "allowed"} by feed ${def.name}` });
  }
  // Counted again with the values that are no entity (an error page's tags pass a line reader, not the entity parser).
  if (rows.size > 0 && skipped.length > rows.size) {
    throw new FeedError("feed.malformed", `not a valid ${def.format} feed: ${skipped.length} entries refused, ${rows.size} taken (first: ${skipped[0]})`);
  }
  if (rows.size === 0) throw new FeedError("feed.empty", `no usable entry in the ${def.format} feed${skipped[0] ? ` (first refused: ${skipped[0]})` : ""}`);
  return { rows: [...rows.values()], skipped, dataDate };
}
