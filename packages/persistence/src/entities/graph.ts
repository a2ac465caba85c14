import { EntitySchema } from "typeorm";
import type { EntityType, RiskLevel } from "@svc/core";
import { float, idText, integer, text, timestamptz } from "./columns.js";

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
  // badNeighbours asks "is this node bad" for every node a walk reaches.
  indices: [{ name: "graph_nodes_bad_idx", columns: ["risk_score"], synchronize: false }],
});

export interface GraphEdgeRow {
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
    // The primary key (from_id, to_id, relation) serves walks along the edge direction.
    from_id: idText({ primary: true }),
    to_id: idText({ primary: true }),
    relation: idText({ primary: true }),
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
  indices: [{ name: "graph_edges_to_idx", columns: ["to_id", "from_id", "relation"], synchronize: false }],
});
