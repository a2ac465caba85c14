import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphResponseSchema, VerdictSchema } from "@svc/contracts";
import { GRAPH_BOUNDS, createScreener, type NewGraphEdge } from "@svc/core";
import { TypeOrmGraphRepository } from "@svc/persistence";
import { startTestApi, type TestApi } from "./test-support.js";

// The entity graph is per account where it comes from checks, and shared only where it comes
// from evidence that is not personal. What one account screens never moves another's verdicts,
// and a verdict does not depend on what was screened before it.
const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

describe.each(engines)("entity graph tenancy and bounds on %s", (engine) => {
  let api: TestApi;
  type Account = Awaited<ReturnType<TestApi["account"]>>;
  let a: Account;
  let b: Account;
  beforeAll(async () => {
    api = await startTestApi(engine);
    a = await api.account("pro");
    b = await api.account("pro");
  }, 120_000);
  afterAll(async () => api?.close());

  const post = (path: string, body: unknown, k: string) =>
    api.app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": k }, body: JSON.stringify(body) });
  const get = (path: string, k: string) => api.app.request(path, { headers: { "x-api-key": k } });
  const screen = async (value: string, k: string) => {
    const res = await post("/v1/screen", { entity_value: value }, k);
    expect(res.status).toBe(200);
    const v = VerdictSchema.parse(await res.json());
    await api.runtime.services.background.drain();
    return v;
  };
  const graph = async (type: string, value: string, k: string, q = "depth=4&max_nodes=500") => {
    const res = await get(`/v1/graph/${type}/${encodeURIComponent(value)}?${q}`, k);
    expect(res.status).toBe(200);
    return GraphResponseSchema.parse(await res.json());
  };
  const sharedEdge = (from: string, to: string, relation = "same_owner"): NewGraphEdge => ({ from, to, relation, weight: 1, source: "intel-feed", seen_at: new Date("2026-11-01T00:00:00Z") });
  const blocklist = async (type: string, value: string, at = "2026-11-02T00:00:00.000Z") => {
    await api.runtime.dataSource.query(
      `INSERT INTO intel_records (type, value, list, source, label, added_at, updated_at) VALUES ($1, $2, 'block', 'test-feed', 'phishing', $3, $3)`,
      [type, value, at],
    );
  };

  // First: before any other check in this database touched arnazon.com.
  it("a screened e-mail address does not change its domain's score", async () => {
    const c = await api.account();
    const d = await api.account();
    const first = await screen("arnazon.com", c.key);
    await screen("mailto:admin@arnazon.com", c.key);
    expect((await screen("arnazon.com", c.key)).risk_score).toBe(first.risk_score);
    expect((await screen("arnazon.com", d.key)).risk_score).toBe(first.risk_score);
  });

  it("keeps one account's URL, token and e-mail out of another's graph view and verdict", async () => {
    const url = "https://arnazon.com/reset?email=alice.smith@bigcorp.com&token=SECRET123";
    const before = await screen("arnazon.com", b.key);
    const mine = await screen(url, a.key);
    await screen("alice.smith@arnazon.com", a.key);
    await screen("https://arnazon.com/b-only?session=BSESSION", b.key);

    const forB = await graph("domain", "arnazon.com", b.key);
    expect(JSON.stringify(forB)).not.toMatch(/SECRET123|alice|bigcorp|reset/);
    const afterB = await screen("arnazon.com", b.key);
    expect(JSON.stringify(afterB)).not.toMatch(/SECRET123|alice|bigcorp|reset/);
    expect(afterB.risk_score).toBe(before.risk_score);
    expect(afterB.signals.map((s) => s.code)).not.toContain("graph.linked_to_bad");

    // A's own view shows its own checks, with the risk its own verdict gave — and nothing of B's.
    const forA = await graph("domain", "arnazon.com", a.key);
    const urlNode = forA.nodes.find((n) => n.id === mine.entity.id);
    expect(urlNode?.value).toContain("token=SECRET123");
    expect(urlNode?.risk_score).toBe(mine.risk_score);
    expect(forA.nodes.map((n) => n.id)).toContain("email:alice.smith@arnazon.com");
    expect(JSON.stringify(forA)).not.toMatch(/b-only|BSESSION/);
    // B asking for A's URL by name learns neither its links nor A's verdict.
    const direct = await graph("url", url, b.key);
    expect(direct.edges).toEqual([]);
    expect(direct.nodes[0]).toMatchObject({ risk_score: null, risk_level: null });
  });

  it("an innocent domain stays at its score after phishing URLs under it were screened", async () => {
    const c = await api.account();
    const first = await screen("bakerberlin.de", c.key);
    for (const u of ["https://paypal-login.bakerberlin.de/verify", "https://secure-paypal.bakerberlin.de/login?x=1", "https://paypal-login.bakerberlin.de/verify/account"]) {
      await screen(u, c.key);
      await screen(u, a.key);
    }
    expect((await screen("bakerberlin.de", c.key)).risk_score).toBe(first.risk_score);
    expect((await screen("bakerberlin.de", b.key)).risk_score).toBe(first.risk_score);
  });

  it("shared evidence still propagates: a domain linked in the shared graph to a blocklisted one", async () => {
    await blocklist("domain", "evil-drainer-hub.com");
    await api.runtime.services.graph.upsertEdges([sharedEdge("domain:linked-to-evil.net", "domain:evil-drainer-hub.com")]);
    const v = await screen("linked-to-evil.net", b.key);
    const sig = v.signals.find((s) => s.code === "graph.linked_to_bad");
    expect(sig?.message).toBe("Linked to domain:evil-drainer-hub.com (blocklisted by test-feed: risk 95) by same_owner");
    expect(sig?.source).toEqual({ name: "entity-graph", version: "2026-11-02T00:00:00.000Z" });
    // Every account sees it alike: it is shared evidence.
    expect((await screen("linked-to-evil.net", a.key)).risk_score).toBe(v.risk_score);

    // Confirmed community reports count; filed but unmoderated ones do not.
    const s = api.runtime.services;
    const { report } = await s.reports.file({ reporter_id: "account:someone", entity: { type: "domain", value: "reported-shop.org", id: "domain:reported-shop.org" }, category: "scam" }, s.clock.now());
    await s.graph.upsertEdges([sharedEdge("domain:sister-shop.org", "domain:reported-shop.org")]);
    expect((await screen("sister-shop.org", a.key)).signals.map((x) => x.code)).not.toContain("graph.linked_to_bad");
    await s.reports.moderate(report.id, { status: "confirmed", by: "acc_admin", reason: null, at: s.clock.now() });
    const after = await screen("sister-shop.org", a.key);
    expect(after.signals.find((x) => x.code === "graph.linked_to_bad")?.message).toMatch(/^Linked to domain:reported-shop\.org \(1 confirmed report: risk \d+\) by same_owner$/);
  });

  it("does a bounded amount of work around a hub, for checks and for graph views", async () => {
    const host = "hub-host-bound.com";
    const graphRepo = new TypeOrmGraphRepository(api.runtime.dataSource);
    const seen = new Date("2026-11-01T00:00:00Z");
    const owned: NewGraphEdge[] = Array.from({ length: 2_500 }, (_, i) => ({
      from: `url:https://${host}/${"p".repeat(200)}/${i}?t=${i}`, to: `domain:${host}`, relation: "hosted_on", weight: 1, source: "checks", seen_at: seen, account_id: a.accountId,
    }));
    const shared = Array.from({ length: 2_500 }, (_, i) => sharedEdge(`domain:site${i}.${host}`, `domain:${host}`, "subdomain_of"));
    // Shared hubs behind the hub: every shared neighbour has its own neighbours.
    const second = Array.from({ length: 200 }, (_, i) => sharedEdge(`domain:site${i % 20}.${host}`, `domain:far${i}.example-hub.net`, "resolves_to"));
    await graphRepo.upsertEdges(owned);
    await graphRepo.upsertEdges([...shared, ...second]);

    const p = await graphRepo.proximity(`domain:${host}`, 3, new Date());
    expect(p.visited).toBeLessThanOrEqual(GRAPH_BOUNDS.proximityVisited);
    expect(p.truncated).toBe(true);
    // One bounded index range per visited node and direction.
    expect(p.edges_read).toBeLessThanOrEqual(p.visited * 2 * (GRAPH_BOUNDS.proximityDegree + 1));

    const w = await graphRepo.walkWithStats(`domain:${host}`, { depth: 4, maxNodes: 500, accountId: a.accountId });
    expect(w.truncated).toBe(true);
    expect(w.nodes.length).toBeLessThanOrEqual(500);
    expect(w.edges_read).toBeLessThanOrEqual(w.expanded * 2 * 2 * (GRAPH_BOUNDS.walkDegree + 1));
    expect(w.expanded).toBeLessThanOrEqual(500);

    // Through the API: a check on the hub host and a graph view stay fast (a loose bound).
    const t0 = Date.now();
    await screen(`https://${host}/new-page`, b.key);
    await screen(`https://${host}/another-page`, a.key);
    const view = await graph("domain", host, a.key);
    expect(view.truncated).toBe(true);
    expect(view.nodes.length).toBeLessThanOrEqual(500);
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 120_000);

  it("gives each entity the same score singly, in a batch, in any order, for any account, and in-process", async () => {
    const domains = ["arnazon.com", "bakerberlin.de", "paypa1.com", "quiet-meadow.net"];
    const entity = fc.oneof(
      fc.constantFrom(...domains),
      fc.tuple(fc.constantFrom("", "login.", "paypal-login."), fc.constantFrom(...domains), fc.constantFrom("/", "/verify", "/reset?token=T1")).map(([s, d, p]) => `https://${s}${d}${p}`),
      fc.tuple(fc.constantFrom("admin", "alice.smith", "support"), fc.constantFrom(...domains)).map(([l, d]) => `${l}@${d}`),
      fc.constantFrom("0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "185.220.101.4", "10.0.0.1"),
    );
    const inProcess = createScreener();
    await fc.assert(
      fc.asyncProperty(fc.array(entity, { minLength: 2, maxLength: 6 }), fc.integer({ min: 0, max: 1_000 }), async (values, seed) => {
        const x = await api.account();
        const y = await api.account();
        const scores = new Map<string, Set<number>>();
        const note = (value: string, score: number) => scores.set(value, (scores.get(value) ?? new Set()).add(score));
        for (const v of values) note(v, (await screen(v, x.key)).risk_score);
        const batch = await post("/v1/screen/batch", { entities: values }, x.key);
        expect(batch.status).toBe(200);
        const body = (await batch.json()) as { results: { index: number; result?: { risk_score: number } }[] };
        for (const r of body.results) note(values[r.index] as string, r.result?.risk_score ?? -1);
        await api.runtime.services.background.drain();
        const shuffled = [...values].sort((p, q) => ((p.length * 31 + seed) % 7) - ((q.length * 31 + seed) % 7) || (p < q ? 1 : -1));
        for (const v of shuffled) note(v, (await screen(v, x.key)).risk_score);
        for (const v of [...values].reverse()) note(v, (await screen(v, y.key)).risk_score);
        for (const v of values) {
          const r = await inProcess.screen(v);
          if (!r.ok) throw new Error(`in-process screening refused ${v}`);
          note(v, r.verdict.risk_score);
        }
        for (const [v, s] of scores) expect([v, [...s]]).toEqual([v, [[...s][0]]]);
      }),
      { numRuns: 3, seed: 20261124 },
    );
  }, 120_000);
});
