import type { DataSource } from "typeorm";
import {
  BAD_NEIGHBOUR_PATHS, BAD_NEIGHBOUR_SCORE, WALK_DEPTH, WALK_MAX_EDGES, WALK_NODES, clampInt, splitEntityId,
  type GraphEdge, type GraphNode, type GraphPath, type GraphRepository, type GraphWalk, type NewGraphEdge,
  type NewGraphNode, type WalkOptions,
} from "@svc/core";
import type { GraphEdgeRow, GraphNodeRow } from "../entities/graph.js";
import { iso } from "./sql.js";

/**
 * Path rows a walk may enumerate. The recursive CTE follows every simple path (the path array
 * cuts cycles), which grows fast around hubs; PostgreSQL evaluates a recursive CTE only as far
 * as its reader asks, and it produces rows level by level, so a LIMIT on the reader stops the
 * walk early without skipping a nearer level. Hitting it marks the walk truncated.
 */
const MAX_PATH_ROWS = 20_000;

/** Breadth-first over edges in both directions; `$1` root, `$2` depth, `$3` relation or null. */
const WALK_CTE = `
  WITH RECURSIVE walk(id, depth, path, relations) AS (
    SELECT $1::text COLLATE "C", 0, ARRAY[$1::text COLLATE "C"], ARRAY[]::text[] COLLATE "C"
    UNION ALL
    SELECT n.next, w.depth + 1, w.path || n.next, w.relations || n.relation
      FROM walk w
      CROSS JOIN LATERAL (
        SELECT e.to_id AS next, e.relation FROM graph_edges e
         WHERE e.from_id = w.id AND ($3::text IS NULL OR e.relation = $3::text)
        UNION ALL
        SELECT e.from_id, e.relation FROM graph_edges e
         WHERE e.to_id = w.id AND ($3::text IS NULL OR e.relation = $3::text)
      ) n
     WHERE w.depth < $2::int AND NOT n.next = ANY (w.path)
  ),
  capped AS MATERIALIZED (SELECT * FROM walk LIMIT ${MAX_PATH_ROWS})`;

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

  async walk(rootId: string, options: WalkOptions = {}): Promise<GraphWalk> {
    const rootParts = splitEntityId(rootId);
    if (!rootParts) throw new RangeError(`not an entity id: ${JSON.stringify(rootId)}`);
    const depth = clampInt(options.depth, 1, WALK_DEPTH.max, WALK_DEPTH.default);
    const maxNodes = clampInt(options.maxNodes, 1, WALK_NODES.max, WALK_NODES.default);
    const relation = options.relation ?? null;
    const rows = (await this.ds.manager.query(
      `${WALK_CTE},
       best AS (SELECT id, min(depth) AS depth FROM capped GROUP BY id)
       SELECT b.id, b.depth::int AS depth, g.type, g.value, g.risk_score, g.risk_level,
              (SELECT count(*) FROM capped)::int AS paths
         FROM best b LEFT JOIN graph_nodes g ON g.id = b.id
        ORDER BY b.depth, b.id
        LIMIT ${maxNodes + 1}`,
      [rootId, depth, relation],
    )) as (Partial<GraphNodeRow> & { id: string; depth: number; paths: number })[];
    const truncatedNodes = rows.length > maxNodes || (rows[0]?.paths ?? 0) >= MAX_PATH_ROWS;
    const nodes = rows.slice(0, maxNodes).map((r) => ({ ...toNode(r), depth: r.depth }));
    const ids = nodes.map((n) => n.id);
    const edgeRows = (await this.ds.manager.query(
      `SELECT * FROM graph_edges
        WHERE from_id = ANY ($1::text[]) AND to_id = ANY ($1::text[]) AND ($2::text IS NULL OR relation = $2::text)
        ORDER BY from_id, to_id, relation
        LIMIT ${WALK_MAX_EDGES + 1}`,
      [ids, relation],
    )) as GraphEdgeRow[];
    const root = nodes[0] ?? { id: rootId, ...rootParts, risk_score: null, risk_level: null, depth: 0 };
    const { depth: _rootDepth, ...rootNode } = root;
    return {
      root: rootNode,
      nodes,
      edges: edgeRows.slice(0, WALK_MAX_EDGES).map(toEdge),
      truncated: truncatedNodes || edgeRows.length > WALK_MAX_EDGES,
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
    // Per bad node its shortest path (ties: smallest node ids, then relations, byte-wise).
    const rows = (await this.ds.manager.query(
      `${WALK_CTE}
       SELECT DISTINCT ON (c.id) c.id, c.depth, c.path, c.relations, g.risk_score
         FROM capped c JOIN graph_nodes g ON g.id = c.id
        WHERE c.depth > 0 AND g.risk_score >= ${BAD_NEIGHBOUR_SCORE}
        ORDER BY c.id, c.depth, c.path, c.relations`,
      [entityId, depth, null],
    )) as { id: string; depth: number; path: string[]; relations: string[]; risk_score: number }[];
    return rows
      .sort((a, b) => a.depth - b.depth || b.risk_score - a.risk_score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, BAD_NEIGHBOUR_PATHS)
      .map((r) => ({ nodes: r.path, relations: r.relations, risk_score: r.risk_score }));
  }
}

function toNode(r: Partial<GraphNodeRow> & { id: string }): GraphNode {
  const parts = r.type && r.value !== undefined ? { type: r.type, value: r.value } : splitEntityId(r.id);
  if (!parts) throw new RangeError(`not an entity id: ${JSON.stringify(r.id)}`);
  return { id: r.id, type: parts.type, value: parts.value, risk_score: r.risk_score ?? null, risk_level: r.risk_level ?? null };
}

function toEdge(r: GraphEdgeRow): GraphEdge {
  return { from: r.from_id, to: r.to_id, relation: r.relation, weight: r.weight, source: r.source, first_seen: iso(r.first_seen), last_seen: iso(r.last_seen) };
}
