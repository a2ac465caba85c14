import type { DataSource } from "typeorm";
import {
  BAD_NEIGHBOUR_PATHS, BAD_NEIGHBOUR_SCORE, WALK_DEPTH, WALK_MAX_EDGES, WALK_NODES, clampInt, splitEntityId,
  type GraphEdge, type GraphEdgeKey, type GraphNode, type GraphPath, type GraphRepository, type GraphWalk, type NewGraphEdge,
  type NewGraphNode, type WalkOptions,
} from "@svc/core";
import type { GraphEdgeRow, GraphNodeRow } from "../entities/graph.js";
import { iso } from "./sql.js";

/**
 * Nodes a bad-neighbour search visits at most: around hubs (a shared host, a mail provider) the
 * neighbourhood within a few hops can be most of the graph; a check needs the nearest bad nodes.
 */
const MAX_VISITED = 20_000;

export class TypeOrmGraphRepository implements GraphRepository {
  constructor(private readonly ds: DataSource) {}

  async upsertNodes(nodes: readonly NewGraphNode[]): Promise<void> {
    const merged = new Map<string, NewGraphNode>();
    for (const n of nodes) merged.set(n.id, { ...merged.get(n.id), ...n });
    if (merged.size === 0) return;
    // In id order, so that concurrent upserts lock rows in the same order and cannot deadlock.
    const list = [...merged.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await this.ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO graph_nodes (id, type, value, risk_score, risk_level)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[])
         ON CONFLICT (id) DO NOTHING`,
        [list.map((n) => n.id), list.map((n) => n.type), list.map((n) => n.value), list.map((n) => n.risk_score ?? null), list.map((n) => n.risk_level ?? null)],
      );
      // Existing nodes: a risk field the caller left out keeps its value.
      await m.query(
        `UPDATE graph_nodes g
            SET type = u.type, value = u.value,
                risk_score = CASE WHEN u.set_score THEN u.risk_score ELSE g.risk_score END,
                risk_level = CASE WHEN u.set_level THEN u.risk_level ELSE g.risk_level END
           FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::boolean[], $6::text[], $7::boolean[])
                AS u(id, type, value, risk_score, set_score, risk_level, set_level)
          WHERE g.id = u.id`,
        [
          list.map((n) => n.id), list.map((n) => n.type), list.map((n) => n.value),
          list.map((n) => n.risk_score ?? null), list.map((n) => n.risk_score !== undefined),
          list.map((n) => n.risk_level ?? null), list.map((n) => n.risk_level !== undefined),
        ],
      );
    });
  }

  async upsertEdges(edges: readonly NewGraphEdge[]): Promise<void> {
    const merged = new Map<string, { from: string; to: string; relation: string; weight: number; source: string; first: Date; last: Date }>();
    for (const e of edges) {
      const key = `${e.from}\u0000${e.to}\u0000${e.relation}`;
      const had = merged.get(key);
      if (!had) merged.set(key, { from: e.from, to: e.to, relation: e.relation, weight: e.weight, source: e.source, first: e.seen_at, last: e.seen_at });
      else {
        const newer = e.seen_at >= had.last;
        merged.set(key, {
          ...had,
          weight: newer ? e.weight : had.weight,
          source: newer ? e.source : had.source,
          first: e.seen_at < had.first ? e.seen_at : had.first,
          last: newer ? e.seen_at : had.last,
        });
      }
    }
    if (merged.size === 0) return;
    const list = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
    const endpoints = [...new Set(list.flatMap((e) => [e.from, e.to]))].sort().map((id) => {
      const parts = splitEntityId(id);
      if (!parts) throw new RangeError(`not an entity id: ${JSON.stringify(id)}`);
      return { id, ...parts };
    });
    await this.ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO graph_nodes (id, type, value) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
         ON CONFLICT (id) DO NOTHING`,
        [endpoints.map((n) => n.id), endpoints.map((n) => n.type), endpoints.map((n) => n.value)],
      );
      // An older observation widens first_seen but never moves last_seen back or overrides newer attributes.
      await m.query(
        `INSERT INTO graph_edges (from_id, to_id, relation, weight, source, first_seen, last_seen)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::text[], $6::timestamptz[], $7::timestamptz[])
         ON CONFLICT (from_id, to_id, relation) DO UPDATE SET
           weight = CASE WHEN EXCLUDED.last_seen >= graph_edges.last_seen THEN EXCLUDED.weight ELSE graph_edges.weight END,
           source = CASE WHEN EXCLUDED.last_seen >= graph_edges.last_seen THEN EXCLUDED.source ELSE graph_edges.source END,
           first_seen = LEAST(graph_edges.first_seen, EXCLUDED.first_seen),
           last_seen = GREATEST(graph_edges.last_seen, EXCLUDED.last_seen)`,
        [
          list.map((e) => e.from), list.map((e) => e.to), list.map((e) => e.relation), list.map((e) => e.weight),
          list.map((e) => e.source), list.map((e) => iso(e.first)), list.map((e) => iso(e.last)),
        ],
      );
    });
  }

  async removeEdges(edges: readonly GraphEdgeKey[]): Promise<void> {
    if (edges.length === 0) return;
    await this.ds.manager.query(
      `DELETE FROM graph_edges e USING unnest($1::text[], $2::text[], $3::text[]) AS q(from_id, to_id, relation)
        WHERE e.from_id = q.from_id AND e.to_id = q.to_id AND e.relation = q.relation`,
      [edges.map((e) => e.from), edges.map((e) => e.to), edges.map((e) => e.relation)],
    );
  }

  async walk(rootId: string, options: WalkOptions = {}): Promise<GraphWalk> {
    const rootParts = splitEntityId(rootId);
    if (!rootParts) throw new RangeError(`not an entity id: ${JSON.stringify(rootId)}`);
    const depth = clampInt(options.depth, 1, WALK_DEPTH.max, WALK_DEPTH.default);
    const maxNodes = clampInt(options.maxNodes, 1, WALK_NODES.max, WALK_NODES.default);
    const relation = options.relation ?? null;
    // Breadth-first, one query per level: the next level's unvisited neighbours, smallest ids
    // first and no more than the node cap still allows (plus one, to know that it cut).
    const depths = new Map<string, number>([[rootId, 0]]);
    let frontier = [rootId];
    let truncated = false;
    for (let d = 1; d <= depth && frontier.length > 0 && !truncated; d++) {
      const room = maxNodes - depths.size;
      const rows = (await this.ds.manager.query(
        `SELECT n.next FROM (
           (SELECT e.to_id COLLATE "C" AS next FROM graph_edges e WHERE e.from_id = ANY ($1::text[]) AND ($2::text IS NULL OR e.relation = $2::text)
            UNION ALL
            SELECT e.from_id COLLATE "C" FROM graph_edges e WHERE e.to_id = ANY ($1::text[]) AND ($2::text IS NULL OR e.relation = $2::text))
           EXCEPT
           SELECT v COLLATE "C" FROM unnest($3::text[]) AS v
         ) n
         ORDER BY 1 LIMIT ${Math.max(0, room) + 1}`,
        [frontier, relation, [...depths.keys()]],
      )) as { next: string }[];
      if (rows.length > room) truncated = true;
      frontier = rows.slice(0, Math.max(0, room)).map((r) => r.next);
      for (const id of frontier) depths.set(id, d);
    }
    const ids = [...depths.keys()];
    // Nodes and edges read side by side. Joins on unnest rather than `= ANY (array)`: an index
    // probe per id; the to_id test as a hashed semi-join.
    const [nodeRows, edgeRows] = (await Promise.all([
      this.ds.manager.query(`SELECT g.* FROM unnest($1::text[]) AS q(id) JOIN graph_nodes g ON g.id = q.id`, [ids]),
      this.ds.manager.query(
        `SELECT e.* FROM unnest($1::text[]) AS q(id) JOIN graph_edges e ON e.from_id = q.id
          WHERE e.to_id IN (SELECT unnest($1::text[])) AND ($2::text IS NULL OR e.relation = $2::text)
          ORDER BY e.from_id COLLATE "C", e.to_id COLLATE "C", e.relation COLLATE "C"
          LIMIT ${WALK_MAX_EDGES + 1}`,
        [ids, relation],
      ),
    ])) as [GraphNodeRow[], GraphEdgeRow[]];
    const byId = new Map(nodeRows.map((r) => [r.id, r]));
    const nodes = ids
      .map((id) => ({ ...toNode(byId.get(id) ?? { id }), depth: depths.get(id) as number }))
      .sort((a, b) => a.depth - b.depth || cmpBytes(a.id, b.id));
    const { depth: _rootDepth, ...rootNode } = nodes[0] ?? { id: rootId, ...rootParts, risk_score: null, risk_level: null, depth: 0 };
    return {
      root: rootNode,
      nodes,
      edges: edgeRows.slice(0, WALK_MAX_EDGES).map(toEdge),
      truncated: truncated || edgeRows.length > WALK_MAX_EDGES,
    };
  }

  /** Which of these ids have at least one edge (in either direction): one query for many. */
  async withEdges(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await this.ds.manager.query(
      `SELECT q.id FROM unnest($1::text[]) AS q(id)
        WHERE EXISTS (SELECT 1 FROM graph_edges e WHERE e.from_id = q.id)
           OR EXISTS (SELECT 1 FROM graph_edges e WHERE e.to_id = q.id)`,
      [[...new Set(ids)]],
    )) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  async badNeighbours(entityId: string, maxDepth: number): Promise<readonly GraphPath[]> {
    const depth = clampInt(maxDepth, 1, WALK_DEPTH.max, WALK_DEPTH.default);
    // Breadth-first, one query per level, keeping per node its shortest path; among equally
    // short ones the smallest node ids, then relations, byte-wise. A shortest path's prefix is
    // itself the best path to its last-but-one node, so each level extends the previous one's.
    const best = new Map<string, { nodes: string[]; relations: string[] }>([[entityId, { nodes: [entityId], relations: [] }]]);
    const bad: { id: string; risk_score: number }[] = [];
    let frontier = [entityId];
    for (let d = 1; d <= depth && frontier.length > 0 && best.size < MAX_VISITED; d++) {
      const rows = (await this.ds.manager.query(
        `SELECT n.src, n.next, n.relation, g.risk_score FROM (
           SELECT e.from_id AS src, e.to_id AS next, e.relation FROM graph_edges e WHERE e.from_id = ANY ($1::text[])
           UNION ALL
           SELECT e.to_id, e.from_id, e.relation FROM graph_edges e WHERE e.to_id = ANY ($1::text[])
         ) n LEFT JOIN graph_nodes g ON g.id = n.next`,
        [frontier],
      )) as { src: string; next: string; relation: string; risk_score: number | null }[];
      const level = new Map<string, { nodes: string[]; relations: string[]; risk_score: number | null }>();
      for (const r of rows) {
        if (best.has(r.next)) continue;
        const via = best.get(r.src);
        if (!via) continue;
        const nodes = [...via.nodes, r.next];
        const relations = [...via.relations, r.relation];
        const had = level.get(r.next);
        if (!had || (cmpArrays(nodes, had.nodes) || cmpArrays(relations, had.relations)) < 0) level.set(r.next, { nodes, relations, risk_score: r.risk_score });
      }
      frontier = [];
      for (const [id, p] of level) {
        if (best.size >= MAX_VISITED) break;
        best.set(id, { nodes: p.nodes, relations: p.relations });
        frontier.push(id);
        if (p.risk_score !== null && p.risk_score >= BAD_NEIGHBOUR_SCORE) bad.push({ id, risk_score: p.risk_score });
      }
    }
    return bad
      .map((b) => ({ ...b, path: best.get(b.id) as { nodes: string[]; relations: string[] } }))
      .sort((a, b) => a.path.nodes.length - b.path.nodes.length || b.risk_score - a.risk_score || cmpBytes(a.id, b.id))
      .slice(0, BAD_NEIGHBOUR_PATHS)
      .map((b) => ({ nodes: b.path.nodes, relations: b.path.relations, risk_score: b.risk_score }));
  }
}

/** Byte-wise order of the UTF-8 forms (PostgreSQL's COLLATE "C"): code point order. */
function cmpBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function cmpArrays(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = cmpBytes(a[i] as string, b[i] as string);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function toNode(r: Partial<GraphNodeRow> & { id: string }): GraphNode {
  const parts = r.type && r.value !== undefined ? { type: r.type, value: r.value } : splitEntityId(r.id);
  if (!parts) throw new RangeError(`not an entity id: ${JSON.stringify(r.id)}`);
  return { id: r.id, type: parts.type, value: parts.value, risk_score: r.risk_score ?? null, risk_level: r.risk_level ?? null };
}

function toEdge(r: GraphEdgeRow): GraphEdge {
  return { from: r.from_id, to: r.to_id, relation: r.relation, weight: r.weight, source: r.source, first_seen: iso(r.first_seen), last_seen: iso(r.last_seen) };
}
