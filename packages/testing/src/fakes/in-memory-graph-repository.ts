import {
  SHARED_SCOPE, findBadNeighbours, reportWeight, shareableGraphId, splitEntityId, walkGraph,
  type AdjacencyQuery, type AdjacentEdge, type GraphEdgeKey, type GraphNode, type GraphPath, type GraphRepository, type GraphWalk, type NewGraphEdge,
  type NewGraphNode, type NodeEvidence, type Proximity, type RiskLevel, type WalkOptions,
} from "@svc/core";

interface Edge {
  scope: string;
  from: string;
  to: string;
  relation: string;
  weight: number;
  source: string;
  first: number;
  last: number;
}

interface Risk {
  risk_score: number | null;
  risk_level: RiskLevel | null;
}

/** Shared evidence about entities, as the database keeps it (intel lists, confirmed reports). */
export class InMemorySharedEvidence {
  private readonly intel = new Map<string, { list: "block" | "allow"; source: string; at: Date }[]>();
  private readonly reports = new Map<string, { trust: number; at: Date }[]>();

  list(id: string, list: "block" | "allow", source: string, at: Date): void {
    this.intel.set(id, [...(this.intel.get(id) ?? []).filter((r) => !(r.list === list && r.source === source)), { list, source, at }]);
  }

  /** A confirmed report (not false-positive feedback) by a reporter of this trust. */
  confirmedReport(id: string, trust: number, at: Date): void {
    this.reports.set(id, [...(this.reports.get(id) ?? []), { trust, at }]);
  }

  async evidence(ids: readonly string[], now: Date): Promise<Map<string, NodeEvidence>> {
    const out = new Map<string, NodeEvidence>();
    for (const id of ids) {
      const intel = this.intel.get(id) ?? [];
      const reports = this.reports.get(id) ?? [];
      if (intel.length === 0 && reports.length === 0) continue;
      const blocks = intel.filter((r) => r.list === "block");
      const dates = [...blocks, ...reports].map((r) => r.at.toISOString()).sort();
      out.set(id, {
        blocklisted_by: blocks.map((r) => r.source),
        allowlisted: intel.some((r) => r.list === "allow"),
        confirmed_reports: reports.length,
        confirmed_weight: reports.reduce((s, r) => s + reportWeight(r.trust, r.at, now), 0),
        as_of: dates.at(-1) ?? null,
      });
    }
    return out;
  }
}

/**
 * The entity graph in memory: the same bounded walks as the SQL adapter (`walkGraph`,
 * `findBadNeighbours` from @svc/core), over edges kept per scope.
 */
export class InMemoryGraphRepository implements GraphRepository {
  private readonly nodes = new Map<string, GraphNode>();
  /** Per account, the risk its own verdicts gave nodes. */
  private readonly risks = new Map<string, Risk>();
  private readonly edges = new Map<string, Edge>();

  constructor(readonly evidence: InMemorySharedEvidence = new InMemorySharedEvidence()) {}

  async upsertNodes(nodes: readonly NewGraphNode[]): Promise<void> {
    for (const n of nodes) {
      if (n.account_id) {
        if (!this.nodes.has(n.id)) this.nodes.set(n.id, { id: n.id, type: n.type, value: n.value, risk_score: null, risk_level: null });
        const key = `${n.account_id}\u0000${n.id}`;
        const had = this.risks.get(key);
        this.risks.set(key, {
          risk_score: n.risk_score !== undefined ? n.risk_score : (had?.risk_score ?? null),
          risk_level: n.risk_level !== undefined ? n.risk_level : (had?.risk_level ?? null),
        });
        continue;
      }
      const id = shareableGraphId(n.id);
      const parts = id ? splitEntityId(id) : null;
      if (!id || !parts) continue;
      const had = this.nodes.get(id);
      this.nodes.set(id, {
        id,
        ...parts,
        risk_score: n.risk_score !== undefined ? n.risk_score : (had?.risk_score ?? null),
        risk_level: n.risk_level !== undefined ? n.risk_level : (had?.risk_level ?? null),
      });
    }
  }

  async upsertEdges(edges: readonly NewGraphEdge[]): Promise<void> {
    for (const e of edges) for (const id of [e.from, e.to]) if (!splitEntityId(id)) throw new RangeError(`not an entity id: ${JSON.stringify(id)}`);
    for (const raw of edges) {
      const scope = raw.account_id || SHARED_SCOPE;
      const from = scope === SHARED_SCOPE ? shareableGraphId(raw.from) : raw.from;
      const to = scope === SHARED_SCOPE ? shareableGraphId(raw.to) : raw.to;
      if (!from || !to || (scope === SHARED_SCOPE && from === to)) continue;
      for (const id of [from, to]) {
        const parts = splitEntityId(id);
        if (parts && !this.nodes.has(id)) this.nodes.set(id, { id, ...parts, risk_score: null, risk_level: null });
      }
      const key = `${scope}\u0000${from}\u0000${raw.relation}\u0000${to}`;
      const had = this.edges.get(key);
      const at = raw.seen_at.getTime();
      if (!had) {
        this.edges.set(key, { scope, from, to, relation: raw.relation, weight: raw.weight, source: raw.source, first: at, last: at });
        continue;
      }
      const newer = at >= had.last;
      this.edges.set(key, {
        ...had,
        weight: newer ? raw.weight : had.weight,
        source: newer ? raw.source : had.source,
        first: Math.min(had.first, at),
        last: Math.max(had.last, at),
      });
    }
  }

  /** Removes shared edges (given in any form; stored in their shareable form). */
  async removeEdges(edges: readonly GraphEdgeKey[]): Promise<void> {
    for (const e of edges) {
      const from = shareableGraphId(e.from);
      const to = shareableGraphId(e.to);
      if (from && to) this.edges.delete(`${SHARED_SCOPE}\u0000${from}\u0000${e.relation}\u0000${to}`);
    }
  }

  async walk(rootId: string, options: WalkOptions = {}): Promise<GraphWalk> {
    const { expanded: _e, edges_read: _r, ...walk } = await walkGraph(rootId, options, {
      adjacency: async (q) => this.adjacency(q),
      nodes: async (ids, viewer) => ids.flatMap((id) => {
        const n = this.nodes.get(id);
        if (!n) return [];
        if (viewer === null) return [{ ...n }];
        const r = this.risks.get(`${viewer}\u0000${id}`);
        return [{ ...n, risk_score: r?.risk_score ?? null, risk_level: r?.risk_level ?? null }];
      }),
    });
    return walk;
  }

  async badNeighbours(entityId: string, maxDepth: number, now: Date = new Date()): Promise<readonly GraphPath[]> {
    return (await this.proximity(entityId, maxDepth, now)).paths;
  }

  proximity(entityId: string, maxDepth: number, now: Date = new Date()): Promise<Proximity> {
    return findBadNeighbours(entityId, maxDepth, now, { adjacency: async (q) => this.adjacency(q), evidence: (ids, at) => this.evidence.evidence(ids, at) });
  }

  /** Every visible edge at the ids (the walk cuts each node's list to its bound). */
  private adjacency(q: AdjacencyQuery): AdjacentEdge[] {
    const ids = new Set(q.ids);
    const scopes = new Set(q.scopes);
    const out: AdjacentEdge[] = [];
    for (const e of this.edges.values()) {
      if (!scopes.has(e.scope) || (q.relation !== null && e.relation !== q.relation)) continue;
      const edge = {
        scope: e.scope, from: e.from, to: e.to, relation: e.relation, weight: e.weight, source: e.source,
        first_seen: new Date(e.first).toISOString(), last_seen: new Date(e.last).toISOString(),
      };
      if (ids.has(e.from)) out.push({ ...edge, src: e.from, next: e.to });
      if (ids.has(e.to)) out.push({ ...edge, src: e.to, next: e.from });
    }
    return out;
  }
}
