import type { Entity, GraphPath, GraphProximitySource, IntelMatch, IntelRecord, IntelStore, NewGraphEdge, NewGraphNode, ReportEvidence, ReportEvidenceSource } from "@svc/core";
import type { RateLimiter, RateState, UsageCounter, UsageHit, UsageWindow } from "@svc/server-ports";
import { Coalescer } from "./coalesce.js";
import type { TypeOrmGraphRepository } from "./repositories/typeorm-graph-repository.js";
import type { RateTake, TypeOrmRateLimiter } from "./repositories/typeorm-rate-limiter.js";
import type { TypeOrmIntelStore } from "./repositories/typeorm-intel-store.js";
import type { TypeOrmReportRepository } from "./repositories/typeorm-report-repository.js";
import type { TypeOrmUsageCounter, UsageRequest } from "./repositories/typeorm-usage-counter.js";

/*
 * The per-check database reads and writes of the API and the worker, coalesced across concurrent checks:
 * the same answers as the repositories give one by one, in a few statements per group of
 * checks. See docs/decisions/0008-coalesced-statements.md.
 */

/** Rate-limit and quota hits: one multi-row upsert per group. */
export class CoalescedUsage implements UsageCounter {
  private readonly hits: Coalescer<UsageRequest, UsageHit>;
  constructor(private readonly inner: TypeOrmUsageCounter) {
    this.hits = new Coalescer((batch) => inner.hitMany(batch), { maxInFlight: 4 });
  }
  hit(key: string, window: UsageWindow, windowStart: Date, cost: number, limit: number): Promise<UsageHit> {
    return this.hits.call({ key, window, windowStart, cost, limit });
  }
  refund(key: string, window: UsageWindow, windowStart: Date, cost: number): Promise<void> {
    return this.inner.refund(key, window, windowStart, cost);
  }
  purgeBefore(window: UsageWindow, before: Date): Promise<number> {
    return this.inner.purgeBefore(window, before);
  }
}

/** Sliding-window rate-limit takes: one multi-row upsert per group. */
export class CoalescedRateLimiter implements RateLimiter {
  private readonly takes: Coalescer<RateTake, RateState>;
  constructor(private readonly inner: TypeOrmRateLimiter) {
    this.takes = new Coalescer((batch) => inner.takeMany(batch), { maxInFlight: 4 });
  }
  take(key: string, now: Date, cost: number, limit: number): Promise<RateState> {
    return this.takes.call({ key, now, cost, limit });
  }
  peek(key: string, now: Date, limit: number): Promise<RateState> {
    return this.inner.peek(key, now, limit);
  }
  refund(key: string, takenAt: Date, cost: number): Promise<void> {
    return this.inner.refund(key, takenAt, cost);
  }
}

/**
 * Intel lookups: one query per group. The data version (a GROUP BY over every record) is read at
 * most every `versionTtlMs`, and at once after an import through this store.
 */
export class CoalescedIntel implements IntelStore {
  private readonly lookups: Coalescer<Entity, readonly IntelMatch[]>;
  private cached: { value: Promise<string>; at: number } | null = null;
  constructor(private readonly inner: TypeOrmIntelStore, private readonly now: () => number = Date.now, private readonly versionTtlMs = 5_000) {
    this.lookups = new Coalescer((batch) => inner.lookupMany(batch), { maxInFlight: 4 });
  }
  lookup(entity: Entity): Promise<readonly IntelMatch[]> {
    return this.lookups.call(entity);
  }
  async upsert(records: readonly IntelRecord[]): Promise<{ added: number; updated: number }> {
    try {
      return await this.inner.upsert(records);
    } finally {
      this.cached = null;
    }
  }
  version(): Promise<string> {
    const t = this.now();
    if (!this.cached || t - this.cached.at >= this.versionTtlMs) {
      const value = this.inner.version();
      this.cached = { value, at: t };
      value.catch(() => (this.cached = null));
    }
    return this.cached.value;
  }
}

/** Community report evidence: one aggregate query per group. */
export class CoalescedReportEvidence implements ReportEvidenceSource {
  private readonly reads: Coalescer<{ entityId: string; now: Date }, ReportEvidence | null>;
  constructor(inner: TypeOrmReportRepository) {
    this.reads = new Coalescer((batch) => inner.forEntities(batch), { maxInFlight: 4 });
  }
  forEntity(entityId: string, now: Date): Promise<ReportEvidence | null> {
    return this.reads.call({ entityId, now });
  }
}

/**
 * Graph proximity: one query per group finds which entities have any shared edge at all; only
 * those are walked (within `GRAPH_BOUNDS`). A new entity (most of them) costs a share of one
 * indexed probe.
 */
export class CoalescedGraphProximity implements GraphProximitySource {
  private readonly probes: Coalescer<string, boolean>;
  constructor(private readonly inner: TypeOrmGraphRepository) {
    this.probes = new Coalescer(async (ids) => {
      const linked = await inner.withEdges(ids);
      return ids.map((id) => linked.has(id));
    }, { maxInFlight: 4 });
  }
  async badNeighbours(entityId: string, maxDepth: number, now?: Date): Promise<readonly GraphPath[]> {
    if (!(await this.probes.call(entityId))) return [];
    return this.inner.badNeighbours(entityId, maxDepth, now);
  }
}

/**
 * What checks teach the graph (nodes with the risk the account's verdict gave them, and edges,
 * both scoped to the account that made the check), written in groups: one transaction of
 * prepared statements per group (`TypeOrmGraphRepository.learn`) instead of two per check.
 */
export class GraphLearner {
  private readonly writes: Coalescer<{ nodes: readonly NewGraphNode[]; edges: readonly NewGraphEdge[] }, void>;
  constructor(graph: Pick<TypeOrmGraphRepository, "learn">) {
    this.writes = new Coalescer(async (batch) => {
      // One transaction: nodes (and the edges' endpoints), their risks, then the edges.
      await graph.learn(batch.flatMap((b) => b.nodes), batch.flatMap((b) => b.edges));
      return batch.map(() => undefined);
    }, { maxInFlight: 1, maxBatch: 500 });
  }
  learn(nodes: readonly NewGraphNode[], edges: readonly NewGraphEdge[]): Promise<void> {
    return this.writes.call({ nodes, edges });
  }
}
