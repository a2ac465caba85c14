import { GraphResponseSchema, ProblemSchema, ReportAcceptedSchema, ReportListResponseSchema, ReportSchema, VerdictSchema } from "@svc/contracts";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

/** A valid (all lower-case, so checksum-free) Ethereum address no other test uses. */
const wallet = (): string => `0x${randomBytes(20).toString("hex")}`;
/** A plain domain no other test uses (nothing but reports can make it risky). */
const domain = (label: string): string => `${label}-${randomBytes(4).toString("hex")}-shop.com`;

// Generous timeouts: PGlite is slow on a loaded machine; the 1,000-report test takes seconds when idle.
describe.each(engines)("community reports and the moderation queue on %s", { timeout: 60_000 }, (engine) => {
  let api: TestApi;
  let operator = "";
  let operatorId = "";
  let customer = "";
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key: operator, accountId: operatorId } = await api.account("pro", "operator"));
    ({ key: customer } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => api?.close());

  const post = (path: string, body: unknown, k: string) =>
    api.app.request(path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": k }, body: JSON.stringify(body) });
  const get = (path: string, k: string) => api.app.request(path, { headers: { "x-api-key": k } });
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    const body = ProblemSchema.parse(await res.json());
    expect(body.code).toBe(code);
    return body;
  };
  const fileReport = async (body: Record<string, unknown>, k = customer) => {
    const res = await post("/v1/report", { category: "scam", ...body }, k);
    expect(res.status, await res.clone().text()).toBe(202);
    return ReportAcceptedSchema.parse(await res.json());
  };
  const screen = async (value: string, k = customer) => {
    const res = await post("/v1/screen", { entity_value: value }, k);
    expect(res.status).toBe(200);
    return VerdictSchema.parse(await res.json());
  };
  const score = async (value: string) => (await screen(value)).risk_score;
  const confirm = (id: string, body: unknown = {}, k = operator) => post(`/v1/reports/${id}/confirm`, body, k);
  const reject = (id: string, body: unknown, k = operator) => post(`/v1/reports/${id}/reject`, body, k);
  const reportedWith = async (value: string, type = "domain") => {
    const g = GraphResponseSchema.parse(await (await get(`/v1/graph/${type}/${encodeURIComponent(value)}?depth=1&relation=reported_with`, customer)).json());
    return g.edges.map((e) => `${e.from} → ${e.to}`);
  };

  describe("the queue is the operator's", () => {
    it("a customer key gets 403 auth.operator_only on every queue route, even with a bad body", async () => {
      const target = domain("q403");
      const { id } = await fileReport({ entity_value: target });
      await expectProblem(await get("/v1/reports", customer), 403, "auth.operator_only");
      await expectProblem(await get("/v1/reports?status=nonsense", customer), 403, "auth.operator_only");
      await expectProblem(await confirm(id, {}, customer), 403, "auth.operator_only");
      await expectProblem(await post(`/v1/reports/${id}/approve`, {}, customer), 403, "auth.operator_only");
      await expectProblem(await reject(id, {}, customer), 403, "auth.operator_only");
      // And nothing changed.
      const list = ReportListResponseSchema.parse(await (await get(`/v1/reports?entity=${target}`, operator)).json());
      expect(list.items.map((r) => [r.id, r.moderation_status, r.moderated_at])).toEqual([[id, "unverified", null]]);
    });

    it("lists reports oldest first, filtered by status and entity, a page at a time", async () => {
      const target = domain("paging");
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await fileReport({ entity_value: target, description: `r${i}` }, (await api.account()).key)).id);
      const page = async (q: string) => {
        const res = await get(`/v1/reports?${q}`, operator);
        expect(res.status).toBe(200);
        return ReportListResponseSchema.parse(await res.json());
      };
      const first = await page(`entity=${encodeURIComponent(target.toUpperCase())}&status=unverified&limit=2`);
      expect(first.items.map((r) => r.id)).toEqual(ids.slice(0, 2));
      expect(first.items[0]).toMatchObject({ entity: { id: `domain:${target}` }, description: "r0", moderation_status: "unverified", reporter_id: expect.stringMatching(/^account:/), moderated_at: null });
      const second = await page(`entity=${target}&status=unverified&limit=2&cursor=${first.next_cursor}`);
      expect(second.items.map((r) => r.id)).toEqual(ids.slice(2, 4));
      const third = await page(`entity=${target}&status=unverified&limit=2&cursor=${second.next_cursor}`);
      expect(third.items.map((r) => r.id)).toEqual(ids.slice(4));
      expect(third.next_cursor).toBeNull();
      expect((await page(`entity=${target}&status=confirmed`)).items).toEqual([]);
      await expectProblem(await get("/v1/reports?status=pending", operator), 422, "request.invalid");
      await expectProblem(await get("/v1/reports?entity=not%20an%20entity", operator), 422, "entity.unrecognized");
      await expectProblem(await get("/v1/reports?cursor=abc", operator), 422, "request.invalid_cursor");
    });

    it("confirms and rejects with the decision recorded; the same decision again changes nothing; unknown ids are 404", async () => {
      const target = domain("decide");
      const { id } = await fileReport({ entity_value: target });
      const res = await confirm(id);
      expect(res.status).toBe(200);
      const confirmed = ReportSchema.parse(await res.json());
      expect(confirmed).toMatchObject({ id, moderation_status: "confirmed", moderated_by: operatorId, moderation_reason: null });
      expect(confirmed.moderated_at).toEqual(expect.any(String));
      const again = ReportSchema.parse(await (await post(`/v1/reports/${id}/approve`, {}, operator)).json());
      expect(again).toEqual(confirmed);

      await expectProblem(await reject(id, {}), 422, "request.invalid");
      await expectProblem(await reject(id, { reason: "   " }), 422, "request.invalid");
      await expectProblem(await reject(id, { reason: "x", extra: 1 }), 422, "request.invalid");
      const rejected = ReportSchema.parse(await (await reject(id, { reason: "The shop is real; the reporter confused it with another." })).json());
      expect(rejected).toMatchObject({ moderation_status: "rejected", moderated_by: operatorId, moderation_reason: "The shop is real; the reporter confused it with another." });
      const listed = ReportListResponseSchema.parse(await (await get(`/v1/reports?status=rejected&entity=${target}`, operator)).json());
      expect(listed.items).toEqual([rejected]);

      await expectProblem(await confirm("rep_does_not_exist"), 404, "report.not_found");
      await expectProblem(await reject("rep_does_not_exist", { reason: "spam" }), 404, "report.not_found");
    });
  });

  describe("what a report changes, and when", () => {
    it("an unverified report moves no score; a confirmed one does and the signal explains it; a rejected one stops counting", async () => {
      const target = domain("counts");
      const before = await score(target);
      const { id } = await fileReport({ entity_value: target, category: "phishing" });
      const unverified = await screen(target);
      expect(unverified.risk_score).toBe(before);
      expect(unverified.signals.find((s) => s.code.startsWith("reports."))).toBeUndefined();

      const decided = ReportSchema.parse(await (await confirm(id)).json());
      const after = await screen(target);
      expect(after.risk_score).toBeGreaterThan(before);
      const sig = after.signals.find((s) => s.code === "reports.community");
      expect(sig).toMatchObject({ evidence: { reporters: 1, categories: ["phishing"] }, source: { name: "community-reports", version: decided.moderated_at } });
      expect(sig?.points).toBeGreaterThan(0);

      await reject(id, { reason: "no evidence" });
      const back = await screen(target);
      expect(back.risk_score).toBe(before);
      expect(back.signals.find((s) => s.code.startsWith("reports."))).toBeUndefined();
    });

    it("puts nothing in the graph at filing; confirmation adds shareable reported_with edges, rejection takes them out", async () => {
      const target = domain("edges");
      const w = wallet();
      const mail = `victim.${randomBytes(3).toString("hex")}@mail.example-mailer.com`;
      const url = `https://user@pay.${target}/checkout?session=secret#top`;
      const { id } = await fileReport({ entity_value: target, related_entities: [w, mail, url] });
      expect(await reportedWith(target)).toEqual([]);
      expect(await reportedWith(w, "wallet")).toEqual([]);

      expect((await confirm(id)).status).toBe(200);
      const edges = await reportedWith(target);
      expect(edges.sort()).toEqual([
        `domain:${target} → domain:mail.example-mailer.com`,
        `domain:${target} → url:https://pay.${target}/checkout`,
        `domain:${target} → wallet:${w}`,
      ]);
      // Personal parts never enter the shared graph.
      expect(JSON.stringify(edges)).not.toMatch(/victim|session|user@/);

      expect((await reject(id, { reason: "the wallet is the victim's" })).status).toBe(200);
      expect(await reportedWith(target)).toEqual([]);
    });

    it("an edge stays while another confirmed report names it; a confirmed report filed again leaves the graph until confirmed again", async () => {
      const target = domain("shared-edge");
      const w = wallet();
      const a = await fileReport({ entity_value: target, related_entities: [w] }, (await api.account()).key);
      const meKey = (await api.account()).key;
      const b = await fileReport({ entity_value: target, related_entities: [w] }, meKey);
      await confirm(a.id);
      await confirm(b.id);
      await reject(a.id, { reason: "duplicate" });
      expect(await reportedWith(target)).toEqual([`domain:${target} → wallet:${w}`]);
      // b's reporter files again: b goes back to the queue and its edge leaves with it.
      const again = await fileReport({ entity_value: target, related_entities: [w], description: "more detail" }, meKey);
      expect(again).toMatchObject({ id: b.id, moderation_status: "unverified" });
      expect(await reportedWith(target)).toEqual([]);
    });

    it("check_id must be one of the caller's checks about the reported entity (or the checked URL's or address's domain)", async () => {
      const target = domain("cited");
      const urlCheck = await screen(`https://login.${target}/verify?id=1`);
      const other = await screen(domain("elsewhere"));
      const p = await expectProblem(await post("/v1/report", { entity_value: target, category: "phishing", check_id: other.id }, customer), 422, "report.check_mismatch");
      expect(p.errors?.[0]?.pointer).toBe("/check_id");
      await expectProblem(await post("/v1/report", { entity_value: "paypa1.com", category: "phishing", check_id: urlCheck.id }, customer), 422, "report.check_mismatch");
      // Another account's check is unknown to this caller.
      await expectProblem(await post("/v1/report", { entity_value: target, category: "phishing", check_id: urlCheck.id }, operator), 404, "audit.not_found");
      for (const value of [`https://login.${target}/verify?id=1`, `login.${target}`, target]) {
        expect((await fileReport({ entity_value: value, category: "phishing", check_id: urlCheck.id })).entity.id).toContain(target);
      }
      const mailCheck = await screen(`billing@${target}`);
      expect((await fileReport({ entity_value: target, category: "fraud", check_id: mailCheck.id, feedback: "false_negative" })).moderation_status).toBe("unverified");
    });
  });

  it("1,000 reports from 100 fresh accounts move no verdict; one confirmation does; a rejection does not", async () => {
    // A high-risk domain (so that a reported_with edge would pull a wallet up) and plain ones.
    // A fresh name each run (the PostgreSQL database is shared between runs); its random part moves
    // the score by a few points, so the first of a few draws that scores high is taken.
    let bad = "";
    for (let i = 0; i < 20 && (bad === "" || (await score(bad)) < 65); i++) bad = `paypa1-${randomBytes(3).toString("hex")}.com`;
    const targets = [bad, ...Array.from({ length: 9 }, (_, i) => domain(`flood${i}`))];
    const related = targets.map(() => [wallet(), wallet()]);
    const everything = [...targets, ...related.flat()];
    const baseline = new Map<string, number>();
    for (const v of everything) baseline.set(v, await score(v));
    expect(baseline.get(bad)).toBeGreaterThanOrEqual(65);
    await api.runtime.services.background.drain();

    const keys = await Promise.all(Array.from({ length: 100 }, () => api.account("free")));
    const jobs = keys.flatMap((k) => targets.map((t, i) => () => fileReport({ entity_value: t, category: "drainer", related_entities: related[i] }, k.key)));
    expect(jobs).toHaveLength(1_000);
    const filed: { id: string; entity: { value: string } }[] = [];
    for (let i = 0; i < jobs.length; i += 50) filed.push(...(await Promise.all(jobs.slice(i, i + 50).map((j) => j()))));
    await api.runtime.services.background.drain();
    for (const v of everything) expect({ v, score: await score(v) }).toEqual({ v, score: baseline.get(v) });
    expect(await reportedWith(bad)).toEqual([]);

    // One operator decision: the plain target now carries the report, and the bad domain's
    // related wallet is linked to it.
    const plain = targets[1] as string;
    const onPlain = filed.find((r) => r.entity.value === plain) as { id: string };
    const onBad = filed.find((r) => r.entity.value === bad) as { id: string };
    const confirmed = await confirm(onPlain.id);
    expect(confirmed.status).toBe(200);
    expect((await confirm(onBad.id)).status).toBe(200);
    const v = await screen(plain);
    expect(v.risk_score).toBeGreaterThan(baseline.get(plain) as number);
    expect(v.signals.find((s) => s.code === "reports.community")?.evidence).toMatchObject({ reporters: 1, categories: ["drainer"] });
    const linked = await screen(related[0]?.[0] as string);
    expect(linked.risk_score).toBeGreaterThan(baseline.get(related[0]?.[0] as string) as number);
    expect(linked.signals.find((s) => s.code === "graph.linked_to_bad")?.message).toContain(`domain:${bad}`);

    // A rejection of another report on another target changes nothing there.
    const third = targets[2] as string;
    const onThird = filed.find((r) => r.entity.value === third) as { id: string };
    expect((await reject(onThird.id, { reason: "copy of a chain message" })).status).toBe(200);
    expect(await score(third)).toBe(baseline.get(third));
    for (const w of related[2] ?? []) expect(await score(w)).toBe(baseline.get(w));
  }, 300_000);
});

