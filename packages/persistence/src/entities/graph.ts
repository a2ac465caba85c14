import { EntitySchema } from "typeorm";
import type { EntityType, RiskLevel } from "@svc/core";
import { float, idText, integer, text, timestamptz } from "./columns.js";

/** A graph node; its risk columns are the shared risk (set by non-personal evidence only). */
export interface GraphNodeRow {
  id: string;
  type: EntityType;
  value: string;
  risk_score: number | null;
  risk_level: RiskLevel | null;
}

export const GraphNodeEntity = new EntitySchema<GraphNodeRow>({
  name: "GraphNode",
  tableName: "graph_nodes",
  columns: {
    id: idText({ primary: true }),
    type: text(),
    value: text(),
    risk_score: integer({ nullable: true }),
    risk_level: text({ nullable: true }),
  },
});

/** The risk an account's own latest verdict gave a node: shown in that account's graph view only. */
export interface GraphNodeRiskRow {
  account_id: string;
  node_id: string;
  risk_score: number | null;
  risk_level: RiskLevel | null;
}

export const GraphNodeRiskEntity = new EntitySchema<GraphNodeRiskRow>({
  name: "GraphNodeRisk",
  tableName: "graph_node_risks",
  columns: {
    account_id: idText({ primary: true }),
    node_id: idText({ primary: true }),
    risk_score: integer({ nullable: true }),
    risk_level: text({ nullable: true }),
  },
  foreignKeys: [{ name: "graph_node_risks_node_fk", target: "GraphNode", columnNames: ["node_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" }],
});

export interface GraphEdgeRow {
  /** '' for shared evidence; else the account whose checks revealed the edge. */
  scope: string;
  from_id: string;
  to_id: string;
  relation: string;
  weight: number;
  source: string;
  first_seen: Date;
  last_seen: Date;
}

export const GraphEdgeEntity = new EntitySchema<GraphEdgeRow>({
  name: "GraphEdge",
  tableName: "graph_edges",
  columns: {
    // The primary key (scope, from_id, relation, to_id) serves walks along the edge direction,
    // one scope at a time (an account's hub costs another account's walk nothing), and reads
    // a node's first edges in (relation, neighbour) order without sorting all of them.
    scope: idText({ primary: true, default: "" }),
    from_id: idText({ primary: true }),
    relation: idText({ primary: true }),
    to_id: idText({ primary: true }),
    weight: float(),
    source: text(),
    first_seen: timestamptz(),
    last_seen: timestamptz(),
  },
  foreignKeys: [
    { name: "graph_edges_from_fk", target: "GraphNode", columnNames: ["from_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" },
    { name: "graph_edges_to_fk", target: "GraphNode", columnNames: ["to_id"], referencedColumnNames: ["id"], onDelete: "CASCADE" },
  ],
  // Walks go against the edge direction too.
  indices: [{ name: "graph_edges_to_idx", columns: ["scope", "to_id", "relation", "from_id"], synchronize: false }],
});
