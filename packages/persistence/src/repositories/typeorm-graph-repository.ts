import type { DataSource } from "typeorm";
import {
  CONFIRMED_REPORT_TRUST, REPORT_HALF_LIFE_DAYS, SHARED_SCOPE, findBadNeighbours, shareableGraphId, splitEntityId, walkGraph,
  type AdjacencyQuery, type AdjacentEdge, type GraphEdgeKey, type GraphNode, type GraphPath, type GraphRepository, type GraphWalk, type NewGraphEdge,
  type NewGraphNode, type NodeEvidence, type Proximity, type RiskLevel, type WalkOptions,
} from "@svc/core";
import type { GraphNodeRow } from "../entities/graph.js";
import { hasRawPool, rawQuery, rawSessions, rawTransaction, type RawSession } from "./raw-sql.js";
import { iso } from "./sql.js";

interface MergedEdge { scope: string; from: string; to: string; relation: string; weight: number; source: string; first: Date; last: Date }

const byKey = <T>(entries: Iterable<[string, T]>): T[] => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);

/**
 * The entity graph on PostgreSQL/PGlite. Edges have a scope (shared evidence, or the account
 * whose checks revealed them); walks read at most a fixed number of edges per node and hop
 * (one index range per node, scope and direction), see `GRAPH_BOUNDS`.
 */
export class TypeOrmGraphRepository implements GraphRepository {
  private readonly session: () => Promise<RawSession>;
  /** The per-check reads (is an entity linked at all, its neighbours) as prepared statements (decisions 0044, 0094). */
  private readonly raw: ReturnType<typeof rawQuery>;

  constructor(private readonly ds: DataSource, private readonly defaultTrust: number = CONFIRMED_REPORT_TRUST) {
    this.session = rawSessions(ds);
    this.raw = rawQuery(ds);
  }

  async upsertNodes(nodes: readonly NewGraphNode[]): Promise<void> {
    const plan = nodePlan(nodes);
    if (plan) await this.run(nodeStatements(plan, plan.all));
  }

  async upsertEdges(edges: readonly NewGraphEdge[]): Promise<void> {
    const plan = edgePlan(edges);
    if (plan) await this.run(edgeStatements(plan, true));
  }

  /**
   * What a group of checks teaches the graph, in one transaction: every node and edge endpoint
   * inserted by one statement (in key order, as every other write here: concurrent writers lock
   * rows in the same order and cannot deadlock), then the nodes' risks, then the edges.
   */
  async learn(nodes: readonly NewGraphNode[], edges: readonly NewGraphEdge[]): Promise<void> {
    const n = nodePlan(nodes);
    const e = edgePlan(edges);
    if (!n && !e) return;
    const ids = new Map<string, { id: string; type: string; value: string }>();
    for (const x of [...(n?.all ?? []), ...(e?.endpoints ?? [])]) if (!ids.has(x.id)) ids.set(x.id, x);
    const all = [...ids.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await this.run([...(n ? nodeStatements(n, all) : [insertNodes(all)]), ...(e ? edgeStatements(e, false) : [])]);
  }

  /** Statements in one transaction: prepared, on a raw session of the pool; through TypeORM inside a caller's transaction. */
  private async run(statements: readonly Statement[]): Promise<void> {
    const all = async (query: (st: Statement) => Promise<readonly unknown[]>): Promise<void> => {
      for (const first of statements) {
        for (let st: Statement | null = first; st; ) {
          const rows = await query(st);
          st = st.next ? st.next(rows) : null;
        }
      }
    };
    if (hasRawPool(this.ds)) {
      await rawTransaction(this.session, (q) => all((st) => q.query(st.name, st.text, st.values)));
      return;
    }
    await this.ds.transaction((m) => all(async (st) => (await m.query(st.text, [...st.values])) as unknown[]));
  }

  /** Removes shared edges (given in any form; stored in their shareable form). Accounts' own edges are never touched. */
  async removeEdges(edges: readonly GraphEdgeKey[]): Promise<void> {
    const keys = edges.flatMap((e) => {
      const from = shareableGraphId(e.from);
      const to = shareableGraphId(e.to);
      return from && to ? [{ from, to, relation: e.relation }] : [];
    });
    if (keys.length === 0) return;
    await this.ds.manager.query(
      `DELETE FROM graph_edges e USING unnest($1::text[], $2::text[], $3::text[]) AS q(from_id, to_id, relation)
        WHERE e.scope = '' AND e.from_id = q.from_id AND e.to_id = q.to_id AND e.relation = q.relation`,
      [keys.map((k) => k.from), keys.map((k) => k.to), keys.map((k) => k.relation)],
    );
  }

  async walk(rootId: string, options: WalkOptions = {}): Promise<GraphWalk> {
    const { expanded: _e, edges_read: _r, ...walk } = await this.walkWithStats(rootId, options);
    return walk;
  }

  /** `walk`, with the work it did (nodes expanded, edge rows read). */
  walkWithStats(rootId: string, options: WalkOptions = {}): ReturnType<typeof walkGraph> {
    return walkGraph(rootId, options, { adjacency: (q) => this.adjacency(q), nodes: (ids, viewer) => this.nodes(ids, viewer) });
  }

  async badNeighbours(entityId: string, maxDepth: number, now: Date = new Date()): Promise<readonly GraphPath[]> {
    return (await this.proximity(entityId, maxDepth, now)).paths;
  }

  /** `badNeighbours`, with the work it did (nodes visited, edge rows read) and whether a bound cut it. */
  proximity(entityId: string, maxDepth: number, now: Date = new Date()): Promise<Proximity> {
    return findBadNeighbours(entityId, maxDepth, now, { adjacency: (q) => this.adjacency(q), evidence: (ids, at) => this.evidence(ids, at) });
  }

  /** Which of these ids have at least one shared edge (in either direction): one query for many. */
  async withEdges(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await this.raw(
      "svc_graph_with_edges",
      `SELECT q.id FROM unnest($1::text[]) AS q(id)
        WHERE EXISTS (SELECT 1 FROM graph_edges e WHERE e.scope = '' AND e.from_id = q.id)
           OR EXISTS (SELECT 1 FROM graph_edges e WHERE e.scope = '' AND e.to_id = q.id)`,
      [[...new Set(ids)]],
    )) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Per id, scope and direction, the first `limit` edges in (relation, neighbour) order: one
   * bounded index range each (the primary key and graph_edges_to_idx), however many edges the
   * node has.
   */
  private async adjacency(q: AdjacencyQuery): Promise<AdjacentEdge[]> {
    if (q.ids.length === 0) return [];
    const rows = (await this.raw(
      "svc_graph_adjacency",
      `SELECT a.* FROM unnest($1::text[]) AS f(id) CROSS JOIN unnest($2::text[]) AS s(scope)
       CROSS JOIN LATERAL (
         (SELECT f.id AS src, e.to_id AS next, e.scope, e.from_id, e.to_id, e.relation, e.weight, e.source, e.first_seen, e.last_seen
            FROM graph_edges e WHERE e.scope = s.scope AND e.from_id = f.id AND ($3::text IS NULL OR e.relation = $3::text)
           ORDER BY e.relation, e.to_id LIMIT $4)
         UNION ALL
         (SELECT f.id, e.from_id, e.scope, e.from_id, e.to_id, e.relation, e.weight, e.source, e.first_seen, e.last_seen
            FROM graph_edges e WHERE e.scope = s.scope AND e.to_id = f.id AND ($3::text IS NULL OR e.relation = $3::text)
           ORDER BY e.relation, e.from_id LIMIT $4)
       ) a`,
      [q.ids, q.scopes, q.relation, q.limit],
    )) as { src: string; next: string; scope: string; from_id: string; to_id: string; relation: string; weight: number; source: string; first_seen: Date; last_seen: Date }[];
    return rows.map((r) => ({
      src: r.src, next: r.next, scope: r.scope, from: r.from_id, to: r.to_id, relation: r.relation, weight: r.weight, source: r.source,
      first_seen: iso(r.first_seen), last_seen: iso(r.last_seen),
    }));
  }

  /** Nodes with the viewer's own risk (none: the shared risk). */
  private async nodes(ids: readonly string[], viewer: string | null): Promise<GraphNode[]> {
    const rows = (viewer === null
      ? await this.ds.manager.query(`SELECT g.* FROM unnest($1::text[]) AS q(id) JOIN graph_nodes g ON g.id = q.id`, [ids])
      : await this.ds.manager.query(
        `SELECT g.id, g.type, g.value, r.risk_score, r.risk_level FROM unnest($1::text[]) AS q(id) JOIN graph_nodes g ON g.id = q.id
           LEFT JOIN graph_node_risks r ON r.account_id = $2 AND r.node_id = q.id`,
        [ids, viewer],
      )) as GraphNodeRow[];
    return rows.map((r) => ({ id: r.id, type: r.type, value: r.value, risk_score: r.risk_score ?? null, risk_level: r.risk_level ?? null }));
  }

  /**
   * Shared evidence about each id: blocklist and allowlist entries (intel_records), and
   * confirmed reports weighted by reporter trust and decayed with age as `reportWeight` does.
   */
  private async evidence(ids: readonly string[], now: Date): Promise<Map<string, NodeEvidence>> {
    const parts = ids.map((id) => ({ id, ...(splitEntityId(id) ?? { type: "", value: "" }) }));
    const rows = (await this.ds.manager.query(
      `SELECT q.id, i.blocked_by, i.allowed, i.intel_at, rp.n, rp.weighted, rp.newest
         FROM unnest($1::text[], $2::text[], $3::text[]) AS q(id, type, value)
         CROSS JOIN LATERAL (
           SELECT coalesce(array_agg(r.source) FILTER (WHERE r.list = 'block'), '{}') AS blocked_by,
                  coalesce(bool_or(r.list = 'allow'), false) AS allowed,
                  max(r.updated_at) FILTER (WHERE r.list = 'block') AS intel_at
             FROM intel_records r WHERE r.type = q.type AND r.value = q.value) i
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS n,
                  coalesce(sum(coalesce(p.trust, $5::float8)
                               * power(0.5::float8, greatest(0, extract(epoch FROM ($4::timestamptz - r.updated_at)))::float8 / 86400.0 / $6::float8)), 0)::float8 AS weighted,
                  max(r.updated_at) AS newest
             FROM reports r LEFT JOIN reporters p ON p.id = r.reporter_id
            WHERE r.entity_id = q.id AND r.moderation_status = 'confirmed' AND r.feedback IS DISTINCT FROM 'false_positive') rp
        WHERE cardinality(i.blocked_by) > 0 OR i.allowed OR rp.n > 0`,
      [parts.map((p) => p.id), parts.map((p) => p.type), parts.map((p) => p.value), now.toISOString(), this.defaultTrust, REPORT_HALF_LIFE_DAYS],
    )) as { id: string; blocked_by: string[]; allowed: boolean; intel_at: Date | null; n: number; weighted: number; newest: Date | null }[];
    const out = new Map<string, NodeEvidence>();
    for (const r of rows) {
      const dates = [r.intel_at, r.newest].filter((d): d is Date => d !== null).map(iso).sort();
      out.set(r.id, { blocklisted_by: [...r.blocked_by], allowlisted: r.allowed, confirmed_reports: r.n, confirmed_weight: r.weighted, as_of: dates.at(-1) ?? null });
    }
    return out;
  }
}

interface Statement {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
  /** The statement to run next in the same transaction, given this one's rows (none: nothing more). */
  readonly next?: (rows: readonly unknown[]) => Statement | null;
}
type NodeRef = { readonly id: string; readonly type: string; readonly value: string };
interface NodePlan {
  /** Every node, shared and owned, in key order. */
  readonly all: readonly NodeRef[];
  /** Shared nodes (in their shareable form), in key order. */
  readonly list: readonly NewGraphNode[];
  /** Accounts' own nodes, in key order. */
  readonly mine: readonly (NewGraphNode & { account_id: string })[];
}
interface EdgePlan {
  readonly list: readonly MergedEdge[];
  readonly endpoints: readonly NodeRef[];
}

const INSERT_NODES_SQL = `INSERT INTO graph_nodes (id, type, value) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (id) DO NOTHING`;
// A risk field the caller left out keeps its value.
const SHARED_RISKS_SQL = `UPDATE graph_nodes g
    SET risk_score = CASE WHEN u.set_score THEN u.risk_score ELSE g.risk_score END,
        risk_level = CASE WHEN u.set_level THEN u.risk_level ELSE g.risk_level END
   FROM unnest($1::text[], $2::int[], $3::boolean[], $4::text[], $5::boolean[]) AS u(id, risk_score, set_score, risk_level, set_level)
  WHERE g.id = u.id`;
// Accounts' risks: new rows are inserted with the risk given (a field left out is NULL, the column's
// default) and reported back; only the rows that already existed are then updated, and only where
// a value changes. (Inserting every row empty and then updating it wrote each new row twice and
// checked its foreign key twice.)
const INSERT_OWNED_RISKS_SQL = `INSERT INTO graph_node_risks (account_id, node_id, risk_score, risk_level)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[])
  ON CONFLICT DO NOTHING RETURNING account_id, node_id`;
const OWNED_RISKS_SQL = `UPDATE graph_node_risks g
    SET risk_score = CASE WHEN u.set_score THEN u.risk_score ELSE g.risk_score END,
        risk_level = CASE WHEN u.set_level THEN u.risk_level ELSE g.risk_level END
   FROM unnest($1::text[], $2::text[], $3::int[], $4::boolean[], $5::text[], $6::boolean[]) AS u(account_id, id, risk_score, set_score, risk_level, set_level)
  WHERE g.account_id = u.account_id AND g.node_id = u.id
    AND ((u.set_score AND g.risk_score IS DISTINCT FROM u.risk_score) OR (u.set_level AND g.risk_level IS DISTINCT FROM u.risk_level))`;
// An older observation widens first_seen but never moves last_seen back or overrides newer attributes.
const UPSERT_EDGES_SQL = `INSERT INTO graph_edges (scope, from_id, to_id, relation, weight, source, first_seen, last_seen)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::timestamptz[], $8::timestamptz[])
  ON CONFLICT (scope, from_id, relation, to_id) DO UPDATE SET
    weight = CASE WHEN EXCLUDED.last_seen >= graph_edges.last_seen THEN EXCLUDED.weight ELSE graph_edges.weight END,
    source = CASE WHEN EXCLUDED.last_seen >= graph_edges.last_seen THEN EXCLUDED.source ELSE graph_edges.source END,
    first_seen = LEAST(graph_edges.first_seen, EXCLUDED.first_seen),
    last_seen = GREATEST(graph_edges.last_seen, EXCLUDED.last_seen)`;

const insertNodes = (nodes: readonly NodeRef[]): Statement =>
  ({ name: "svc_graph_nodes_insert", text: INSERT_NODES_SQL, values: [nodes.map((n) => n.id), nodes.map((n) => n.type), nodes.map((n) => n.value)] });

/** The nodes to write, merged and in key order; null when there is nothing to write. */
function nodePlan(nodes: readonly NewGraphNode[]): NodePlan | null {
  const shared = new Map<string, NewGraphNode>();
  const owned = new Map<string, NewGraphNode & { account_id: string }>();
  for (const n of nodes) {
    if (n.account_id) {
      const key = `${n.account_id}\u0000${n.id}`;
      owned.set(key, { ...owned.get(key), ...n, account_id: n.account_id });
      continue;
    }
    // Shared nodes only in their shareable form: no query strings, no e-mail local parts.
    const id = shareableGraphId(n.id);
    const parts = id ? splitEntityId(id) : null;
    if (!id || !parts) continue;
    shared.set(id, { ...shared.get(id), ...n, id, ...parts });
  }
  if (shared.size === 0 && owned.size === 0) return null;
  // In key order, so that concurrent upserts lock rows in the same order and cannot deadlock.
  const list = byKey(shared.entries());
  const mine = byKey(owned.entries());
  const all = byKey(new Map([...list, ...mine].map((n) => [n.id, n])).entries());
  return { all, list, mine };
}

/** The node statements of `plan`, with `all` the nodes the first one inserts. */
function nodeStatements(plan: NodePlan, all: readonly NodeRef[]): Statement[] {
  const out = [insertNodes(all)];
  if (plan.list.length > 0) out.push({ name: "svc_graph_shared_risks", text: SHARED_RISKS_SQL, values: [plan.list.map((n) => n.id), ...riskColumns(plan.list)] });
  if (plan.mine.length > 0) {
    const { mine } = plan;
    out.push({
      name: "svc_graph_owned_risks_insert",
      text: INSERT_OWNED_RISKS_SQL,
      values: [mine.map((n) => n.account_id), mine.map((n) => n.id), mine.map((n) => n.risk_score ?? null), mine.map((n) => n.risk_level ?? null)],
      next: (rows) => {
        const inserted = new Set((rows as { account_id: string; node_id: string }[]).map((r) => `${r.account_id}\u0000${r.node_id}`));
        const existing = mine.filter((n) => !inserted.has(`${n.account_id}\u0000${n.id}`));
        if (existing.length === 0) return null;
        return { name: "svc_graph_owned_risks", text: OWNED_RISKS_SQL, values: [existing.map((n) => n.account_id), existing.map((n) => n.id), ...riskColumns(existing)] };
      },
    });
  }
  return out;
}

/** The edges to write, merged per key and in key order, with their endpoints; null when there is nothing to write. */
function edgePlan(edges: readonly NewGraphEdge[]): EdgePlan | null {
  for (const e of edges) for (const id of [e.from, e.to]) if (!splitEntityId(id)) throw new RangeError(`not an entity id: ${JSON.stringify(id)}`);
  const merged = new Map<string, MergedEdge>();
  for (const raw of edges) {
    const e = storedEdge(raw);
    if (!e) continue;
    const key = `${e.scope}\u0000${e.from}\u0000${e.relation}\u0000${e.to}`;
    const had = merged.get(key);
    if (!had) merged.set(key, { ...e, first: raw.seen_at, last: raw.seen_at });
    else {
      const newer = raw.seen_at >= had.last;
      merged.set(key, {
        ...had,
        weight: newer ? e.weight : had.weight,
        source: newer ? e.source : had.source,
        first: raw.seen_at < had.first ? raw.seen_at : had.first,
        last: newer ? raw.seen_at : had.last,
      });
    }
  }
  if (merged.size === 0) return null;
  const list = byKey(merged.entries());
  const endpoints = [...new Set(list.flatMap((e) => [e.from, e.to]))].sort().map((id) => ({ id, ...(splitEntityId(id) as { type: string; value: string }) }));
  return { list, endpoints };
}

/** The edge statements of `plan`; `withEndpoints`: first insert the endpoints that are not nodes yet. */
function edgeStatements(plan: EdgePlan, withEndpoints: boolean): Statement[] {
  const { list } = plan;
  const upsert: Statement = {
    name: "svc_graph_edges_upsert",
    text: UPSERT_EDGES_SQL,
    values: [
      list.map((e) => e.scope), list.map((e) => e.from), list.map((e) => e.to), list.map((e) => e.relation), list.map((e) => e.weight),
      list.map((e) => e.source), list.map((e) => iso(e.first)), list.map((e) => iso(e.last)),
    ],
  };
  return withEndpoints ? [insertNodes(plan.endpoints), upsert] : [upsert];
}

function riskColumns(list: readonly NewGraphNode[]): [(number | null)[], boolean[], (RiskLevel | null)[], boolean[]] {
  return [
    list.map((n) => n.risk_score ?? null), list.map((n) => n.risk_score !== undefined),
    list.map((n) => n.risk_level ?? null), list.map((n) => n.risk_level !== undefined),
  ];
}

/** The edge as stored: its scope, and for shared evidence its endpoints' shareable forms (none: not stored). */
function storedEdge(e: NewGraphEdge): Omit<MergedEdge, "first" | "last"> | null {
  if (e.account_id) return { scope: e.account_id, from: e.from, to: e.to, relation: e.relation, weight: e.weight, source: e.source };
  const from = shareableGraphId(e.from);
  const to = shareableGraphId(e.to);
  if (!from || !to || from === to) return null;
  return { scope: SHARED_SCOPE, from, to, relation: e.relation, weight: e.weight, source: e.source };
}
