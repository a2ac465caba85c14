import type { RiskLevel } from "../detection/types.js";
import type { EntityType } from "../entities/types.js";
import type { GraphProximitySource } from "./evidence.js";

export interface GraphNode {
  /** The entity id, `type:value`. */
  readonly id: string;
  readonly type: EntityType;
  readonly value: string;
  readonly risk_score: number | null;
  readonly risk_level: RiskLevel | null;
}

export interface NewGraphNode {
  readonly id: string;
  readonly type: EntityType;
  readonly value: string;
  /** Left unchanged when absent; cleared when null. */
  readonly risk_score?: number | null;
  readonly risk_level?: RiskLevel | null;
  /**
   * Whose risk this is: the account whose own verdict gave it (shown only in that account's
   * graph view). Absent or null: the shared node, whose risk only non-personal evidence sets.
   */
  readonly account_id?: string | null;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** e.g. `resolves_to`, `redirects_to`, `sent_funds`, `reported_with`. */
  readonly relation: string;
  readonly weight: number;
  readonly source: string;
  readonly first_seen: string;
  readonly last_seen: string;
}

/** An observation of an edge: a new edge starts at `seen_at`; a known one moves `last_seen` forward. */
export interface NewGraphEdge {
  readonly from: string;
  readonly to: string;
  readonly relation: string;
  readonly weight: number;
  readonly source: string;
  readonly seen_at: Date;
  /**
   * The account whose checks revealed the edge: it belongs to that account's graph only.
   * Absent or null: shared evidence (intel, confirmed reports, provider data), seen by every
   * account and by graph proximity; its endpoints are stored in their shareable form
   * (`shareableEntityId`: no query, fragment, user-info or e-mail local part).
   */
  readonly account_id?: string | null;
}

/** Which edge: the endpoints and relation that identify it. */
export interface GraphEdgeKey {
  readonly from: string;
  readonly to: string;
  readonly relation: string;
}

export interface WalkOptions {
  /** Hops from the root, 1..4 (clamped); default 2. */
  readonly depth?: number;
  /** Nodes returned, root included, 1..500 (clamped); default 100. */
  readonly maxNodes?: number;
  /** Follow only edges of this relation. */
  readonly relation?: string;
  /**
   * The viewing account: the walk follows shared edges and this account's own, and shows node
   * risk from this account's own verdicts. Absent: shared edges and shared node risk only.
   */
  readonly accountId?: string | null;
}

export interface GraphWalk {
  readonly root: GraphNode;
  /** Breadth-first: by depth (root at 0), then id. */
  readonly nodes: readonly (GraphNode & { readonly depth: number })[];
  /** Edges between returned nodes (of `relation`, when given). */
  readonly edges: readonly GraphEdge[];
  /** True when a node, edge or per-node degree cap cut the result. */
  readonly truncated: boolean;
}

/**
 * The entity graph. Edges are directed as observed but walked in both directions, at most
 * `GRAPH_BOUNDS` neighbours per node and hop. `badNeighbours` follows shared edges only and
 * finds entities that shared evidence says are bad (an intel blocklist entry, confirmed
 * community reports), never through risk that checks wrote.
 */
export interface GraphRepository extends GraphProximitySource {
  upsertNodes(nodes: readonly NewGraphNode[]): Promise<void>;
  /** Creates missing endpoint nodes (type and value read from the id) without a risk. */
  upsertEdges(edges: readonly NewGraphEdge[]): Promise<void>;
  /** Deletes these edges (e.g. evidence withdrawn by a moderator); nodes stay. Unknown edges are ignored. */
  removeEdges(edges: readonly GraphEdgeKey[]): Promise<void>;
  walk(rootId: string, options?: WalkOptions): Promise<GraphWalk>;
}
