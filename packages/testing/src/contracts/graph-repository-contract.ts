import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GRAPH_BOUNDS, type GraphRepository, type NewGraphEdge } from "@svc/core";
import { uniqueId } from "../audit-builders.js";

const T1 = new Date("2026-10-01T00:00:00.000Z");
const T2 = new Date("2026-11-01T00:00:00.000Z");

/** A graph repository, and a way to record the shared evidence (intel, confirmed reports) it reads. */
export interface GraphFixture {
  readonly repo: GraphRepository;
  /** Puts the entity on an intel list. */
  list(entityId: string, list: "block" | "allow", source: string, at: Date): Promise<void>;
  /** A confirmed community report about the entity by a reporter of this trust. */
  confirmedReport(entityId: string, trust: number, at: Date): Promise<void>;
  close(): Promise<void>;
}

export function graphRepositoryContract(name: string, make: () => Promise<GraphFixture>): void {
  describe(`GraphRepository contract: ${name}`, () => {
    let f: GraphFixture;
    /** Entity ids unique to the test, so tests can share a database. */
    let d: (label: string) => string;
    const edge = (from: string, to: string, relation = "links_to", seen_at = T1): NewGraphEdge => ({ from, to, relation, weight: 1, source: "test", seen_at });
    beforeEach(async () => {
      f = await make();
      const ns = uniqueId("g").toLowerCase();
      d = (label) => `domain:${label}.${ns}.example`;
    });
    afterEach(async () => {
      await f.close();
    });

    it("walks edges in both directions and reports each node's depth", async () => {
      await f.repo.upsertNodes([{ id: d("a"), type: "domain", value: d("a").slice(7), risk_score: 10, risk_level: "low" }]);
      await f.repo.upsertEdges([edge(d("a"), d("b")), edge(d("c"), d("a")), edge(d("b"), d("x"))]);
      const w = await f.repo.walk(d("a"), { depth: 1 });
      expect(w.root).toEqual({ id: d("a"), type: "domain", value: d("a").slice(7), risk_score: 10, risk_level: "low" });
      expect(w.nodes.map((n) => [n.id, n.depth])).toEqual([[d("a"), 0], [d("b"), 1], [d("c"), 1]]);
      expect(w.nodes[1]).toEqual({ id: d("b"), type: "domain", value: d("b").slice(7), risk_score: null, risk_level: null, depth: 1 });
      expect(w.edges.map((e) => [e.from, e.to])).toEqual([[d("a"), d("b")], [d("c"), d("a")]]);
      expect(w.truncated).toBe(false);
      const w2 = await f.repo.walk(d("a"), { depth: 2 });
      expect(w2.nodes.find((n) => n.id === d("x"))?.depth).toBe(2);
    });

    it("cuts cycles and gives each node its shortest depth", async () => {
      await f.repo.upsertEdges([edge(d("a"), d("b")), edge(d("b"), d("c")), edge(d("c"), d("a")), edge(d("c"), d("d")), edge(d("d"), d("a"))]);
      const w = await f.repo.walk(d("a"), { depth: 4 });
      expect(w.nodes.map((n) => [n.id, n.depth])).toEqual([[d("a"), 0], [d("b"), 1], [d("c"), 1], [d("d"), 1]]);
      expect(w.edges).toHaveLength(5);
    });

    it("stops at the depth asked for, and clamps it to 1..4", async () => {
      const chain = ["n0", "n1", "n2", "n3", "n4", "n5", "n6"].map(d);
      await f.repo.upsertEdges(chain.slice(1).map((id, i) => edge(chain[i] as string, id)));
      expect((await f.repo.walk(chain[0] as string, { depth: 2 })).nodes.map((n) => n.id)).toEqual(chain.slice(0, 3));
      expect((await f.repo.walk(chain[0] as string, { depth: 9 })).nodes).toHaveLength(5);
      expect((await f.repo.walk(chain[0] as string, { depth: 0 })).nodes).toHaveLength(2);
      expect((await f.repo.walk(chain[0] as string, { depth: 2 })).truncated).toBe(false);
    });

    it("caps the number of nodes, nearest and then smallest ids first, and says so", async () => {
      const leaves = Array.from({ length: 12 }, (_, i) => d(`leaf${String(i).padStart(2, "0")}`));
      await f.repo.upsertEdges(leaves.map((l) => edge(d("hub"), l)));
      const w = await f.repo.walk(d("hub"), { depth: 2, maxNodes: 5 });
      expect(w.nodes.map((n) => n.id)).toEqual([d("hub"), ...[...leaves].sort().slice(0, 4)]);
      expect(w.truncated).toBe(true);
      expect(w.edges).toHaveLength(4);
      expect((await f.repo.walk(d("hub"), { maxNodes: 13 })).truncated).toBe(false);
    });

    it("follows only the relation asked for", async () => {
      await f.repo.upsertEdges([edge(d("a"), d("b"), "resolves_to"), edge(d("a"), d("c"), "redirects_to"), edge(d("b"), d("c"), "redirects_to")]);
      const w = await f.repo.walk(d("a"), { depth: 3, relation: "resolves_to" });
      expect(w.nodes.map((n) => n.id)).toEqual([d("a"), d("b")]);
      expect(w.edges.map((e) => e.relation)).toEqual(["resolves_to"]);
    });

    it("answers a root it has never seen with the root alone, and refuses what is not an entity id", async () => {
      const w = await f.repo.walk(d("lonely"));
      expect(w).toEqual({ root: { id: d("lonely"), type: "domain", value: d("lonely").slice(7), risk_score: null, risk_level: null }, nodes: [{ id: d("lonely"), type: "domain", value: d("lonely").slice(7), risk_score: null, risk_level: null, depth: 0 }], edges: [], truncated: false });
      await expect(f.repo.walk("nonsense")).rejects.toThrow(RangeError);
      await expect(f.repo.upsertEdges([edge("nonsense", d("a"))])).rejects.toThrow(RangeError);
    });

    it("moves last_seen forward on a repeated edge, never back, and keeps first_seen", async () => {
      await f.repo.upsertEdges([edge(d("a"), d("b"), "links_to", T1)]);
      await f.repo.upsertEdges([{ ...edge(d("a"), d("b"), "links_to", T2), weight: 0.5, source: "feed2" }]);
      await f.repo.upsertEdges([{ ...edge(d("a"), d("b"), "links_to", new Date("2026-10-15T00:00:00Z")), weight: 0.1, source: "old" }]);
      const [e] = (await f.repo.walk(d("a"), { depth: 1 })).edges;
      expect(e).toEqual({ from: d("a"), to: d("b"), relation: "links_to", weight: 0.5, source: "feed2", first_seen: T1.toISOString(), last_seen: T2.toISOString() });
    });

    it("keeps a node's risk when an upsert leaves it out, and clears it when given null", async () => {
      const id = d("r");
      const value = id.slice(7);
      await f.repo.upsertNodes([{ id, type: "domain", value, risk_score: 90, risk_level: "critical" }]);
      await f.repo.upsertNodes([{ id, type: "domain", value }]);
      expect((await f.repo.walk(id)).root.risk_score).toBe(90);
      await f.repo.upsertNodes([{ id, type: "domain", value, risk_score: null, risk_level: null }]);
      expect((await f.repo.walk(id)).root).toMatchObject({ risk_score: null, risk_level: null });
    });

    it("finds paths to neighbours that shared evidence says are bad, nearest first, within the depth", async () => {
      const at = new Date("2026-11-01T00:00:00.000Z");
      await f.list(d("far"), "block", "feed-a", at);
      await f.list(d("far"), "block", "feed-b", new Date("2026-11-02T00:00:00.000Z"));
      await f.confirmedReport(d("near"), 1, at);
      // Risk written on a node (by some verdict) is not evidence: "meh" is not bad.
      await f.repo.upsertNodes([{ id: d("meh"), type: "domain", value: d("meh").slice(7), risk_score: 99, risk_level: "critical" }]);
      await f.repo.upsertEdges([
        edge(d("me"), d("mid"), "resolves_to"), edge(d("far"), d("mid"), "same_owner"),
        edge(d("near"), d("me"), "redirects_to"), edge(d("me"), d("meh")), edge(d("mid"), d("near")),
      ]);
      const now = new Date("2026-11-02T00:00:00.000Z");
      const paths = await f.repo.badNeighbours(d("me"), 3, now);
      // One fully trusted confirmed report a day old: 65 + 30 × (1 − e^−0.977) ≈ 84.
      expect(paths).toEqual([
        { nodes: [d("me"), d("near")], relations: ["redirects_to"], risk_score: 84, evidence: { blocklisted_by: [], confirmed_reports: 1, as_of: at.toISOString() } },
        { nodes: [d("me"), d("mid"), d("far")], relations: ["resolves_to", "same_owner"], risk_score: 95, evidence: { blocklisted_by: ["feed-a", "feed-b"], confirmed_reports: 0, as_of: "2026-11-02T00:00:00.000Z" } },
      ]);
      expect(await f.repo.badNeighbours(d("me"), 1, now)).toHaveLength(1);
      expect(await f.repo.badNeighbours(d("nowhere"), 3, now)).toEqual([]);
      // An allowlist entry wins, as when screening.
      await f.list(d("far"), "allow", "official", at);
      expect((await f.repo.badNeighbours(d("me"), 3, now)).map((p) => p.nodes.at(-1))).toEqual([d("near")]);
    });

    it("keeps an account's edges and node risk to that account; shared edges are seen by all", async () => {
      const a = `acc_a_${d("x").slice(7)}`;
      const b = `acc_b_${d("x").slice(7)}`;
      const secret = `url:https://login.${d("host").slice(7)}/reset?token=SECRET`;
      await f.repo.upsertNodes([{ id: secret, type: "url", value: secret.slice(4), risk_score: 80, risk_level: "high", account_id: a }]);
      await f.repo.upsertEdges([{ ...edge(secret, d("host"), "hosted_on"), account_id: a }, edge(d("host"), d("shared"), "same_owner")]);
      await f.list(d("shared"), "block", "feed", T1);
      const forA = await f.repo.walk(d("host"), { depth: 2, accountId: a });
      expect(forA.nodes.map((n) => n.id).sort()).toEqual([d("host"), d("shared"), secret].sort());
      expect(forA.nodes.find((n) => n.id === secret)).toMatchObject({ risk_score: 80, risk_level: "high" });
      const forB = await f.repo.walk(d("host"), { depth: 2, accountId: b });
      expect(forB.nodes.map((n) => n.id)).toEqual([d("host"), d("shared")]);
      expect(JSON.stringify(forB)).not.toContain("SECRET");
      // Another account asking for A's URL itself learns nothing of A's verdict or links.
      const root = await f.repo.walk(secret, { accountId: b });
      expect(root.root).toMatchObject({ risk_score: null, risk_level: null });
      expect(root.edges).toEqual([]);
      // Without a viewer: shared edges only.
      expect((await f.repo.walk(d("host"), { depth: 2 })).nodes.map((n) => n.id)).toEqual([d("host"), d("shared")]);
      // Proximity follows shared edges only: the URL is not linked to the blocklisted domain.
      expect(await f.repo.badNeighbours(secret, 3, T2)).toEqual([]);
      expect((await f.repo.badNeighbours(d("host"), 3, T2)).map((p) => p.nodes)).toEqual([[d("host"), d("shared")]]);
    });

    it("stores shared edges in their shareable form: no query, fragment, user-info or e-mail local part", async () => {
      // A name that parses as a public host (".example" does not).
      const host = d("s").slice(7).replace("_", "-").replace(/\.example$/, ".com");
      await f.repo.upsertEdges([
        edge(`url:https://user:pw@${host}/p?token=T#frag`, `domain:${host}`, "hosted_on"),
        edge(`email:alice@${host}`, d("other"), "reported_with"),
      ]);
      const w = await f.repo.walk(`domain:${host}`, { depth: 2 });
      expect(w.nodes.map((n) => n.id).sort()).toEqual([d("other"), `domain:${host}`, `url:https://${host}/p`].sort());
      expect(JSON.stringify(w)).not.toMatch(/token|frag|alice|pw@/);
    });

    it("follows at most a fixed number of edges per node and hop, and says so", async () => {
      const degree = GRAPH_BOUNDS.walkDegree;
      const leaves = Array.from({ length: degree + 10 }, (_, i) => d(`hub-leaf${String(i).padStart(3, "0")}`));
      await f.repo.upsertEdges(leaves.map((l) => edge(l, d("hub"), "hosted_on")));
      const w = await f.repo.walk(d("hub"), { depth: 2, maxNodes: 500 });
      expect(w.nodes).toHaveLength(1 + degree);
      expect(w.truncated).toBe(true);
      // A bad neighbour behind the hub's cap is beyond what a check reads.
      await f.list(leaves.at(-1) as string, "block", "feed", T1);
      expect(await f.repo.badNeighbours(d("hub"), 1, T2)).toEqual([]);
      await f.list(leaves[0] as string, "block", "feed", T1);
      expect((await f.repo.badNeighbours(d("hub"), 1, T2)).map((p) => p.nodes)).toEqual([[d("hub"), leaves[0]]]);
    });
    it("removes the shared edges named, only those, and keeps their nodes", async () => {
      await f.list(d("bad"), "block", "feed", T1);
      await f.repo.upsertEdges([edge(d("bad"), d("w"), "reported_with"), edge(d("bad"), d("w"), "links_to"), edge(d("bad"), d("v"), "reported_with")]);
      await f.repo.removeEdges([{ from: d("bad"), to: d("w"), relation: "reported_with" }, { from: d("bad"), to: d("nowhere"), relation: "reported_with" }]);
      const w = await f.repo.walk(d("bad"), { depth: 1 });
      expect(w.edges.map((e) => `${e.to} ${e.relation}`).sort()).toEqual([`${d("v")} reported_with`, `${d("w")} links_to`]);
      expect((await f.repo.badNeighbours(d("w"), 1, T2)).map((p) => [p.nodes, p.relations])).toEqual([[[d("w"), d("bad")], ["links_to"]]]);
      await f.repo.removeEdges([{ from: d("bad"), to: d("w"), relation: "links_to" }]);
      expect(await f.repo.badNeighbours(d("w"), 2, T2)).toEqual([]);
      expect((await f.repo.walk(d("w"), { depth: 1 })).nodes.map((n) => n.id)).toEqual([d("w")]);
      await f.repo.removeEdges([]);
    });
  });
}
