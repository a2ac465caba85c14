import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The entity graph gets scopes. Edges learned from an account's checks belong to that account
 * (`scope` = its id); shared evidence (intel, confirmed reports, provider data) has scope ''.
 * The risk an account's verdict gave a node moves to `graph_node_risks`, per account.
 *
 * Existing rows were written without an owner: check-learned edges (source 'checks') cannot be
 * given back to their accounts and may hold personal data (query strings, e-mail addresses), so
 * they are dropped, as are report edges no confirmed report stands behind and nodes left without
 * edges. Every stored node risk came from some account's verdict: it is cleared, and nothing
 * reads node risk to score a check any more (docs/decisions/0014-graph-tenancy-and-bounds.md).
 */
export class GraphScopes1795306000000 implements MigrationInterface {
  readonly name = "GraphScopes1795306000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "graph_edges" WHERE "source" = 'checks'`);
    await q.query(
      `DELETE FROM "graph_edges" e WHERE e."source" = 'reports' AND NOT EXISTS (
         SELECT 1 FROM "reports" r WHERE r."moderation_status" = 'confirmed' AND r."entity_id" = e."from_id" AND r."related_entities" ? e."to_id")`,
    );
    await q.query(`DELETE FROM "graph_nodes" n WHERE NOT EXISTS (SELECT 1 FROM "graph_edges" e WHERE e."from_id" = n."id" OR e."to_id" = n."id")`);
    await q.query(`UPDATE "graph_nodes" SET "risk_score" = NULL, "risk_level" = NULL`);
    await q.query(`DROP INDEX "graph_nodes_bad_idx"`);
    await q.query(`ALTER TABLE "graph_edges" ADD COLUMN "scope" text COLLATE "C" NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "graph_edges" DROP CONSTRAINT "graph_edges_pkey"`);
    await q.query(`ALTER TABLE "graph_edges" ADD CONSTRAINT "graph_edges_pkey" PRIMARY KEY ("scope", "from_id", "relation", "to_id")`);
    await q.query(`DROP INDEX "graph_edges_to_idx"`);
    await q.query(`CREATE INDEX "graph_edges_to_idx" ON "graph_edges" ("scope", "to_id", "relation", "from_id")`);
    await q.query(`CREATE TABLE "graph_node_risks" (
      "account_id" text COLLATE "C" NOT NULL,
      "node_id" text COLLATE "C" NOT NULL,
      "risk_score" integer,
      "risk_level" text,
      CONSTRAINT "graph_node_risks_pkey" PRIMARY KEY ("account_id", "node_id"),
      CONSTRAINT "graph_node_risks_node_fk" FOREIGN KEY ("node_id") REFERENCES "graph_nodes" ("id") ON DELETE CASCADE
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "graph_node_risks"`);
    await q.query(`DELETE FROM "graph_edges" WHERE "scope" <> ''`);
    await q.query(`DROP INDEX "graph_edges_to_idx"`);
    await q.query(`ALTER TABLE "graph_edges" DROP CONSTRAINT "graph_edges_pkey"`);
    await q.query(`ALTER TABLE "graph_edges" DROP COLUMN "scope"`);
    await q.query(`ALTER TABLE "graph_edges" ADD CONSTRAINT "graph_edges_pkey" PRIMARY KEY ("from_id", "to_id", "relation")`);
    await q.query(`CREATE INDEX "graph_edges_to_idx" ON "graph_edges" ("to_id", "from_id", "relation")`);
    await q.query(`CREATE INDEX "graph_nodes_bad_idx" ON "graph_nodes" ("risk_score")`);
  }
}
