import { RULESET } from "../detection/ruleset.js";
import { parseEntity } from "../entities/parse-entity.js";
import { shareableEntityId } from "../entities/shareable.js";
import type { GraphPath } from "./evidence.js";
import type { GraphEdge, GraphNode, GraphWalk, WalkOptions } from "./graph-repository.js";
import { BAD_NEIGHBOUR_PATHS, BAD_NEIGHBOUR_SCORE, WALK_DEPTH, WALK_MAX_EDGES, WALK_NODES, clampInt, splitEntityId } from "./storage-limits.js";

/*
 * The graph walks every adapter runs (SQL and in memory), written once so that they answer
 * alike: the adapters only read a bounded adjacency and the evidence of a bounded set of nodes.
 * See docs/decisions/0014-graph-tenancy-and-bounds.md.
 */

/**
 * The work any one walk may do, whatever the graph looks like (hubs: a shared host with
 * thousands of URLs, a mail provider). Per node and hop, at most `degree` edges are followed
 * (in relation, then neighbour id order); a bad-neighbour search visits at most `visited` nodes.
 */
export const GRAPH_BOUNDS = {
  /** Edges followed per node and hop by a check's bad-neighbour search. */
  proximityDegree: 32,
  /** Nodes a check's bad-neighbour search visits at most (the root included). */
  proximityVisited: 128,
  /** Edges followed per node and hop by a graph view (`walk`). */
  walkDegree: 64,
} as const;

/** Scope of shared evidence in storage; an account's own edges carry its account id. */
export const SHARED_SCOPE = "";

/** One edge as seen from one of its ends (`src`), with the scope it belongs to. */
export interface AdjacentEdge extends GraphEdge {
  readonly src: string;
  /** The other end. */
  readonly next: string;
  /** `SHARED_SCOPE` or the owning account id. */
  readonly scope: string;
}

export interface AdjacencyQuery {
  readonly ids: readonly string[];
  /** Scopes to follow: the shared one, and the viewing account's when there is one. */
  readonly scopes: readonly string[];
  readonly relation: string | null;
  /**
   * Per id, the adapter returns at least its first `limit` edges in (relation, next) order
   * within each scope and direction (it may return more: they are cut here).
   */
  readonly limit: number;
}

/** Reads edges at the given ids (both directions). */
export type Adjacency = (q: AdjacencyQuery) => Promise<readonly AdjacentEdge[]>;

/** What shared evidence says about one entity. */
export interface NodeEvidence {
  /** Intel sources that blocklist it. */
  readonly blocklisted_by: readonly string[];
  readonly allowlisted: boolean;
  /** Confirmed community reports (false-positive feedback excluded). */
  readonly confirmed_reports: number;
  /** Their reporter trust, decayed with age (`reportWeight`), summed. */
  readonly confirmed_weight: number;
  /** Newest intel entry or confirmed report used. */
  readonly as_of: string | null;
}

/**
 * Risk of an entity from shared evidence alone: a blocklist entry scores what the blocklist
 * rule gives (95: critical on its own); confirmed reports — moderated, so evidence and not
 * opinion — score from `high` (65, one stale or little-trusted report) towards 95 as trusted,
 * fresh confirmations add up. An allowlist entry wins, as it does when screening.
 * Null when nothing shared says the entity is bad.
 */
export function sharedEvidenceRisk(e: NodeEvidence): number | null {
  if (e.allowlisted) return null;
  let risk: number | null = null;
  if (e.blocklisted_by.length > 0) risk = RULESET.rules["intel.blocklisted"]?.points ?? 95;
  if (e.confirmed_reports > 0) {
    const fromReports = Math.round(BAD_NEIGHBOUR_SCORE + 30 * (1 - Math.exp(-Math.max(0, e.confirmed_weight))));
    risk = Math.max(risk ?? 0, fromReports);
  }
  return risk;
}

/**
 * The form of an entity id that may enter the shared graph (`shareableEntityId`): a URL
 * without user-info, query or fragment, an e-mail address as its domain; other ids as they
 * are. Null when the id is not an entity id, or a URL or e-mail that does not parse.
 */
export function shareableGraphId(id: string): string | null {
  const parts = splitEntityId(id);
  if (!parts) return null;
  if (parts.type !== "url" && parts.type !== "email") return id;
  const parsed = parseEntity(parts.value, { type: parts.type });
  if (!parsed.ok) return null;
  return shareableEntityId(parsed.entity);
}

/** Byte-wise order of the UTF-8 forms (PostgreSQL's COLLATE "C"): code point order. */
export function cmpBytes(a: string, b: string): number {
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

// (relation, neighbour) is the order of the SQL indexes, so a node's first edges are read
// without sorting all of them, with or without a relation filter.
const cmpAdjacent = (a: AdjacentEdge, b: AdjacentEdge): number =>
  cmpBytes(a.relation, b.relation) || cmpBytes(a.next, b.next) || cmpBytes(a.from, b.from) || cmpBytes(a.scope, b.scope);

/** Per source id, its first `degree` edges in a total order; `cut` when any id had more. */
function capPerNode(rows: readonly AdjacentEdge[], degree: number): { kept: AdjacentEdge[]; cut: boolean } {
  const bySrc = new Map<string, AdjacentEdge[]>();
  for (const r of rows) {
    const list = bySrc.get(r.src);
    if (list) list.push(r);
    else bySrc.set(r.src, [r]);
  }
  const kept: AdjacentEdge[] = [];
  let cut = false;
  for (const list of bySrc.values()) {
    list.sort(cmpAdjacent);
    if (list.length > degree) cut = true;
    kept.push(...list.slice(0, degree));
  }
  return { kept, cut };
}

export interface WalkReads {
  readonly adjacency: Adjacency;
  /** Nodes with the risk shown to the viewer (its own, or the shared one without a viewer); missing ids have none. */
  readonly nodes: (ids: readonly string[], viewer: string | null) => Promise<readonly GraphNode[]>;
}

/**
 * A graph view: breadth-first from the root over shared edges and the viewer's own, at most
 * `walkDegree` edges per node, nearest then smallest ids first up to `maxNodes`.
 */
export async function walkGraph(rootId: string, options: WalkOptions, reads: WalkReads): Promise<GraphWalk & { readonly expanded: number; readonly edges_read: number }> {
  const rootParts = splitEntityId(rootId);
  if (!rootParts) throw new RangeError(`not an entity id: ${JSON.stringify(rootId)}`);
  const depth = clampInt(options.depth, 1, WALK_DEPTH.max, WALK_DEPTH.default);
  const maxNodes = clampInt(options.maxNodes, 1, WALK_NODES.max, WALK_NODES.default);
  const relation = options.relation ?? null;
  const viewer = options.accountId ?? null;
  const scopes = viewer !== null && viewer !== SHARED_SCOPE ? [SHARED_SCOPE, viewer] : [SHARED_SCOPE];
  const degree = GRAPH_BOUNDS.walkDegree;
  const depths = new Map<string, number>([[rootId, 0]]);
  const seen: AdjacentEdge[] = [];
  const expanded = new Set<string>();
  let edgesRead = 0;
  let truncated = false;
  const expand = async (ids: readonly string[]): Promise<AdjacentEdge[]> => {
    const rows = await reads.adjacency({ ids, scopes, relation, limit: degree + 1 });
    edgesRead += rows.length;
    for (const id of ids) expanded.add(id);
    const { kept, cut } = capPerNode(rows, degree);
    if (cut) truncated = true;
    seen.push(...kept);
    return kept;
  };
  let frontier = [rootId];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const rows = await expand(frontier);
    const next = [...new Set(rows.map((r) => r.next))].filter((id) => !depths.has(id)).sort(cmpBytes);
    const room = maxNodes - depths.size;
    if (next.length > room) truncated = true;
    frontier = next.slice(0, Math.max(0, room));
    for (const id of frontier) depths.set(id, d);
    if (next.length > room) break;
  }
  // Edges between returned nodes that were not expanded (the last level): read, not followed.
  const rest = [...depths.keys()].filter((id) => !expanded.has(id));
  if (rest.length > 0) await expand(rest);
  const edges = new Map<string, AdjacentEdge>();
  for (const e of seen.sort((a, b) => cmpBytes(a.from, b.from) || cmpBytes(a.to, b.to) || cmpBytes(a.relation, b.relation) || cmpBytes(a.scope, b.scope))) {
    if (!depths.has(e.from) || !depths.has(e.to)) continue;
    // The same link known as shared evidence and from the viewer's checks: shown once, shared first.
    const key = `${e.from}\u0000${e.to}\u0000${e.relation}`;
    if (!edges.has(key)) edges.set(key, e);
  }
  const edgeList = [...edges.values()];
  if (edgeList.length > WALK_MAX_EDGES) truncated = true;
  const ids = [...depths.keys()];
  const byId = new Map((await reads.nodes(ids, viewer)).map((n) => [n.id, n]));
  const nodes = ids
    .map((id) => ({ ...nodeOf(id, byId.get(id)), depth: depths.get(id) as number }))
    .sort((a, b) => a.depth - b.depth || cmpBytes(a.id, b.id));
  const { depth: _rootDepth, ...root } = nodes[0] as GraphNode & { depth: number };
  return {
    root,
    nodes,
    edges: edgeList.slice(0, WALK_MAX_EDGES).map(({ from, to, relation: r, weight, source, first_seen, last_seen }) => ({ from, to, relation: r, weight, source, first_seen, last_seen })),
    truncated,
    expanded: expanded.size,
    edges_read: edgesRead,
  };
}

function nodeOf(id: string, n: GraphNode | undefined): GraphNode {
  if (n) return { id, type: n.type, value: n.value, risk_score: n.risk_score, risk_level: n.risk_level };
  const parts = splitEntityId(id);
  if (!parts) throw new RangeError(`not an entity id: ${JSON.stringify(id)}`);
  return { id, ...parts, risk_score: null, risk_level: null };
}

export interface ProximityReads {
  /** Called with the shared scope only. */
  readonly adjacency: Adjacency;
  readonly evidence: (ids: readonly string[], now: Date) => Promise<ReadonlyMap<string, NodeEvidence>>;
}

export interface Proximity {
  readonly paths: readonly GraphPath[];
  /** Nodes visited, the root included (≤ `GRAPH_BOUNDS.proximityVisited`). */
  readonly visited: number;
  /** Edge rows the adapter returned in all. */
  readonly edges_read: number;
  /** True when a bound cut the search. */
  readonly truncated: boolean;
}

/**
 * Bad neighbours of an entity: breadth-first over SHARED edges only, keeping per node its
 * shortest path (ties: smallest node ids, then relations, byte-wise), within the bounds; a
 * visited node is bad when its shared evidence gives it a risk of `BAD_NEIGHBOUR_SCORE` or
 * more. The root's own evidence is not counted again here.
 */
export async function findBadNeighbours(entityId: string, maxDepth: number, now: Date, reads: ProximityReads): Promise<Proximity> {
  const depth = clampInt(maxDepth, 1, WALK_DEPTH.max, WALK_DEPTH.default);
  const { proximityDegree: degree, proximityVisited: budget } = GRAPH_BOUNDS;
  const best = new Map<string, { nodes: string[]; relations: string[] }>([[entityId, { nodes: [entityId], relations: [] }]]);
  let frontier = [entityId];
  let edgesRead = 0;
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    if (best.size >= budget) {
      truncated = true;
      break;
    }
    const rows = await reads.adjacency({ ids: frontier, scopes: [SHARED_SCOPE], relation: null, limit: degree + 1 });
    edgesRead += rows.length;
    const { kept, cut } = capPerNode(rows, degree);
    if (cut) truncated = true;
    const level = new Map<string, { nodes: string[]; relations: string[] }>();
    for (const r of kept) {
      if (best.has(r.next)) continue;
      const via = best.get(r.src);
      if (!via) continue;
      const nodes = [...via.nodes, r.next];
      const relations = [...via.relations, r.relation];
      const had = level.get(r.next);
      if (!had || (cmpArrays(nodes, had.nodes) || cmpArrays(relations, had.relations)) < 0) level.set(r.next, { nodes, relations });
    }
    frontier = [];
    for (const id of [...level.keys()].sort(cmpBytes)) {
      if (best.size >= budget) {
        truncated = true;
        break;
      }
      best.set(id, level.get(id) as { nodes: string[]; relations: string[] });
      frontier.push(id);
    }
  }
  const reached = [...best.keys()].filter((id) => id !== entityId);
  const evidence = reached.length > 0 ? await reads.evidence(reached, now) : new Map<string, NodeEvidence>();
  const bad: { id: string; risk_score: number; ev: NodeEvidence }[] = [];
  for (const id of reached) {
    const ev = evidence.get(id);
    const risk = ev ? sharedEvidenceRisk(ev) : null;
    if (ev && risk !== null && risk >= BAD_NEIGHBOUR_SCORE) bad.push({ id, risk_score: risk, ev });
  }
  const paths = bad
    .map((b) => ({ ...b, path: best.get(b.id) as { nodes: string[]; relations: string[] } }))
    .sort((a, b) => a.path.nodes.length - b.path.nodes.length || b.risk_score - a.risk_score || cmpBytes(a.id, b.id))
    .slice(0, BAD_NEIGHBOUR_PATHS)
    .map((b): GraphPath => ({
      nodes: b.path.nodes,
      relations: b.path.relations,
      risk_score: b.risk_score,
      evidence: { blocklisted_by: [...b.ev.blocklisted_by].sort(cmpBytes), confirmed_reports: b.ev.confirmed_reports, as_of: b.ev.as_of },
    }));
  return { paths, visited: best.size, edges_read: edgesRead, truncated };
}
