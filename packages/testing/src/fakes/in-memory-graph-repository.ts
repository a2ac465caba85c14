import {
  BAD_NEIGHBOUR_PATHS, BAD_NEIGHBOUR_SCORE, WALK_DEPTH, WALK_MAX_EDGES, WALK_NODES, clampInt, splitEntityId,
  type GraphEdge, type GraphEdgeKey, type GraphNode, type GraphPath, type GraphRepository, type GraphWalk, type NewGraphEdge,
  type NewGraphNode, type WalkOptions,
} from "@svc/core";

interface Edge {
  from: string;
  to: string;
  relation: string;
  weight: number;
  source: string;
  first: number;
  last: number;
}

/** The entity graph in memory: breadth-first walks with a visited set (same answers as the SQL walk). */
export class InMemoryGraphRepository implements GraphRepository {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly edges = new Map<string, Edge>();

  async upsertNodes(nodes: readonly NewGraphNode[]): Promise<void> {
    for (const n of nodes) {
      const had = this.nodes.get(n.id);
      this.nodes.set(n.id, {
        id: n.id,
        type: n.type,
        value: n.value,
        risk_score: n.risk_score !== undefined ? n.risk_score : (had?.risk_score ?? null),
        risk_level: n.risk_level !== undefined ? n.risk_level : (had?.risk_level ?? null),
      });
    }
  }

  async upsertEdges(edges: readonly NewGraphEdge[]): Promise<void> {
    for (const e of edges) for (const id of [e.from, e.to]) if (!splitEntityId(id)) throw new RangeError(`not an entity id: ${JSON.stringify(id)}`);
    for (const e of edges) {
      for (const id of [e.from, e.to]) {
        const parts = splitEntityId(id);
        if (parts && !this.nodes.has(id)) this.nodes.set(id, { id, ...parts, risk_score: null, risk_level: null });
      }
      const key = `${e.from}\u0000${e.to}\u0000${e.relation}`;
      const had = this.edges.get(key);
      const at = e.seen_at.getTime();
      if (!had) {
        this.edges.set(key, { from: e.from, to: e.to, relation: e.relation, weight: e.weight, source: e.source, first: at, last: at });
        continue;
      }
      const newer = at >= had.last;
      this.edges.set(key, {
        ...had,
        weight: newer ? e.weight : had.weight,
        source: newer ? e.source : had.source,
        first: Math.min(had.first, at),
        last: Math.max(had.last, at),
      });
    }
  }

  async removeEdges(edges: readonly GraphEdgeKey[]): Promise<void> {
    for (const e of edges) this.edges.delete(`${e.from}\u0000${e.to}\u0000${e.relation}`);
  }

  async walk(rootId: string, options: WalkOptions = {}): Promise<GraphWalk> {
    const rootParts = splitEntityId(rootId);
    if (!rootParts) throw new RangeError(`not an entity id: ${JSON.stringify(rootId)}`);
    const depth = clampInt(options.depth, 1, WALK_DEPTH.max, WALK_DEPTH.default);
    const maxNodes = clampInt(options.maxNodes, 1, WALK_NODES.max, WALK_NODES.default);
    const relation = options.relation ?? null;
    const depths = new Map<string, number>([[rootId, 0]]);
    let frontier = [rootId];
    for (let d = 1; d <= depth && frontier.length > 0; d++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const { other } of this.neighbours(id, relation)) {
          if (!depths.has(other)) {
            depths.set(other, d);
            next.push(other);
          }
        }
      }
      frontier = next;
    }
    const all = [...depths.entries()].sort(([a, da], [b, db]) => da - db || cmp(a, b));
    const nodes = all.slice(0, maxNodes).map(([id, d]) => ({ ...this.node(id), depth: d }));
    const kept = new Set(nodes.map((n) => n.id));
    const edges = [...this.edges.values()]
      .filter((e) => kept.has(e.from) && kept.has(e.to) && (relation === null || e.relation === relation))
      .sort((a, b) => cmp(a.from, b.from) || cmp(a.to, b.to) || cmp(a.relation, b.relation));
    const { depth: _rootDepth, ...root } = nodes[0] ?? { ...this.node(rootId), depth: 0 };
    return {
      root,
      nodes,
      edges: edges.slice(0, WALK_MAX_EDGES).map(toEdge),
      truncated: all.length > maxNodes || edges.length > WALK_MAX_EDGES,
    };
  }

  async badNeighbours(entityId: string, maxDepth: number): Promise<readonly GraphPath[]> {
    const depth = clampInt(maxDepth, 1, WALK_DEPTH.max, WALK_DEPTH.default);
    // Every simple path up to `depth` (as the SQL walk enumerates them), keeping per bad node
    // the shortest, ties broken by node ids and then relations, byte-wise.
    const best = new Map<string, { nodes: string[]; relations: string[] }>();
    const visit = (path: string[], relations: string[]): void => {
      const id = path[path.length - 1] as string;
      const score = this.nodes.get(id)?.risk_score ?? null;
      if (path.length > 1 && score !== null && score >= BAD_NEIGHBOUR_SCORE) {
        const had = best.get(id);
        if (!had || path.length < had.nodes.length || (path.length === had.nodes.length && (cmpArrays(path, had.nodes) || cmpArrays(relations, had.relations)) < 0)) {
          best.set(id, { nodes: [...path], relations: [...relations] });
        }
      }
      if (path.length > depth) return;
      for (const { other, relation } of this.neighbours(id, null)) {
        if (!path.includes(other)) visit([...path, other], [...relations, relation]);
      }
    };
    visit([entityId], []);
    return [...best.entries()]
      .map(([id, p]) => ({ id, ...p, risk_score: this.nodes.get(id)?.risk_score ?? 0 }))
      .sort((a, b) => a.nodes.length - b.nodes.length || b.risk_score - a.risk_score || cmp(a.id, b.id))
      .slice(0, BAD_NEIGHBOUR_PATHS)
      .map((p) => ({ nodes: p.nodes, relations: p.relations, risk_score: p.risk_score }));
  }

  private *neighbours(id: string, relation: string | null): Iterable<{ other: string; relation: string }> {
    for (const e of this.edges.values()) {
      if (relation !== null && e.relation !== relation) continue;
      if (e.from === id) yield { other: e.to, relation: e.relation };
      if (e.to === id) yield { other: e.from, relation: e.relation };
    }
  }

  private node(id: string): GraphNode {
    const n = this.nodes.get(id);
    if (n) return { ...n };
    const parts = splitEntityId(id);
    if (!parts) throw new RangeError(`not an entity id: ${JSON.stringify(id)}`);
    return { id, ...parts, risk_score: null, risk_level: null };
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function cmpArrays(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = cmp(a[i] as string, b[i] as string);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

const toEdge = (e: Edge): GraphEdge => ({
  from: e.from, to: e.to, relation: e.relation, weight: e.weight, source: e.source,
  first_seen: new Date(e.first).toISOString(), last_seen: new Date(e.last).toISOString(),
});
