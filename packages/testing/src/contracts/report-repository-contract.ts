import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CONFIRMED_REPORT_TRUST, InvalidCursorError, earnedReporterTrust,
  type ModerationDecision, type ModerationStatus, type NewReport, type ReportRepository,
} from "@svc/core";
import { uniqueId } from "../audit-builders.js";

const NOW = new Date("2026-11-01T00:00:00.000Z");
const daysAgo = (d: number): Date => new Date(NOW.getTime() - d * 86_400_000);
const decision = (status: ModerationStatus, at: Date = NOW, reason: string | null = null, by = "acc_admin"): ModerationDecision => ({ status, by, reason, at });

export function reportRepositoryContract(name: string, make: () => Promise<{ repo: ReportRepository; close(): Promise<void> }>): void {
  describe(`ReportRepository contract: ${name}`, () => {
    let f: { repo: ReportRepository; close(): Promise<void> };
    let entity: NewReport["entity"];
    /** Another entity unique to the test. */
    let other: (label: string) => NewReport["entity"];
    const report = (reporter_id: string, extra: Partial<NewReport> = {}): NewReport => ({ reporter_id, entity, category: "phishing", ...extra });
    beforeEach(async () => {
      f = await make();
      const value = `${uniqueId("scam").toLowerCase()}.example`;
      entity = { type: "domain", value, id: `domain:${value}` };
      other = (label) => ({ type: "domain", value: `${label}.${value}`, id: `domain:${label}.${value}` });
    });
    afterEach(async () => {
      await f.close();
    });

    it("files a report with everything the reporter said, unmoderated", async () => {
      const { report: r, created, previous } = await f.repo.file(report("u1", {
        description: "asks for my seed phrase", evidence_urls: ["https://x.example/shot.png"],
        related_entities: ["wallet:0xabc"], check_id: "chk_1", feedback: "false_negative",
      }), NOW);
      expect(created).toBe(true);
      expect(previous).toBeNull();
      expect(r).toEqual({
        id: expect.stringMatching(/^rep_/), reporter_id: "u1", entity, category: "phishing",
        description: "asks for my seed phrase", evidence_urls: ["https://x.example/shot.png"], related_entities: ["wallet:0xabc"],
        check_id: "chk_1", feedback: "false_negative", moderation_status: "unverified",
        moderated_at: null, moderated_by: null, moderation_reason: null,
        created_at: NOW.toISOString(), updated_at: NOW.toISOString(),
      });
      expect(await f.repo.get(r.id)).toEqual(r);
      expect(await f.repo.get("rep_unknown")).toBeNull();
    });

    it("counts nothing a fresh reporter says until the operator confirms it", async () => {
      for (let i = 0; i < 5; i++) await f.repo.file(report(uniqueId("fresh"), { related_entities: ["wallet:0xabc"] }), NOW);
      expect(await f.repo.forEntity(entity.id, NOW)).toBeNull();
      expect(await f.repo.confirmedRelated(entity.id)).toEqual([]);
    });

    it("counts a confirmed report at full weight, halved every 30 days, versioned by its confirmation", async () => {
      const { report: r } = await f.repo.file(report(uniqueId("u"), { category: "scam" }), daysAgo(30));
      await f.repo.file(report(uniqueId("u")), daysAgo(1));
      const confirmed = await f.repo.moderate(r.id, decision("confirmed", daysAgo(2)));
      expect(confirmed?.previous_status).toBe("unverified");
      expect(confirmed?.report).toMatchObject({ moderation_status: "confirmed", moderated_at: daysAgo(2).toISOString(), moderated_by: "acc_admin", moderation_reason: null });
      const ev = await f.repo.forEntity(entity.id, NOW);
      expect(ev).toMatchObject({ reporters: 1, categories: ["scam"], false_positive_reports: 0, newest_at: daysAgo(30).toISOString(), version: daysAgo(2).toISOString() });
      expect(ev?.weighted).toBeCloseTo(CONFIRMED_REPORT_TRUST * 0.5, 6);
    });

    it("the same reporter again replaces the report, which goes back to the queue", async () => {
      const reporter = uniqueId("u");
      const first = await f.repo.file(report(reporter, { related_entities: ["wallet:0xabc"] }), daysAgo(10));
      await f.repo.moderate(first.report.id, decision("confirmed", daysAgo(9)));
      expect(await f.repo.confirmedRelated(entity.id)).toEqual(["wallet:0xabc"]);
      const second = await f.repo.file(report(reporter, { category: "scam", description: "again" }), NOW);
      expect(second).toMatchObject({ created: false, previous: { moderation_status: "confirmed", related_entities: ["wallet:0xabc"] } });
      expect(second.report.id).toBe(first.report.id);
      expect(second.report).toMatchObject({
        category: "scam", description: "again", moderation_status: "unverified", moderated_at: null, moderated_by: null, moderation_reason: null,
        created_at: daysAgo(10).toISOString(), updated_at: NOW.toISOString(),
      });
      expect(await f.repo.forEntity(entity.id, NOW)).toBeNull();
      expect(await f.repo.confirmedRelated(entity.id)).toEqual([]);
    });

    it("counts unmoderated reports of a reporter the operator trusts", async () => {
      const trusted = uniqueId("u");
      await f.repo.setReporterTrust(trusted, 0.8);
      await f.repo.file(report(trusted), daysAgo(30));
      const ev = await f.repo.forEntity(entity.id, NOW);
      expect(ev).toMatchObject({ reporters: 1, version: daysAgo(30).toISOString() });
      expect(ev?.weighted).toBeCloseTo(0.4, 6);
      await expect(f.repo.setReporterTrust(trusted, 1.5)).rejects.toThrow(RangeError);
    });

    it("a reporter earns trust from confirmed reports and loses it with rejected ones", async () => {
      const reporter = uniqueId("u");
      const earlier = [];
      for (const label of ["a", "b", "c", "d"]) earlier.push((await f.repo.file(report(reporter, { entity: other(label) }), daysAgo(5))).report);
      await f.repo.file(report(reporter), NOW);
      // Two confirmed: not yet enough.
      for (const r of earlier.slice(0, 2)) await f.repo.moderate(r.id, decision("confirmed", daysAgo(4)));
      expect(await f.repo.forEntity(entity.id, NOW)).toBeNull();
      await f.repo.moderate((earlier[2] as { id: string }).id, decision("confirmed", daysAgo(4)));
      const ev = await f.repo.forEntity(entity.id, NOW);
      expect(earnedReporterTrust(3, 0)).toBeGreaterThan(0);
      expect(ev).toMatchObject({ reporters: 1, version: NOW.toISOString() });
      expect(ev?.weighted).toBeCloseTo(earnedReporterTrust(3, 0), 6);
      await f.repo.moderate((earlier[3] as { id: string }).id, decision("rejected", daysAgo(3), "not a scam"));
      expect((await f.repo.forEntity(entity.id, NOW))?.weighted).toBeCloseTo(earnedReporterTrust(3, 1), 6);
      await f.repo.moderate((earlier[0] as { id: string }).id, decision("rejected", daysAgo(3), "duplicate"));
      expect(await f.repo.forEntity(entity.id, NOW)).toBeNull();
    });

    it("counts verdict disputes apart from reports of abuse", async () => {
      const a = await f.repo.file(report("u1"), NOW);
      const b = await f.repo.file(report("u2", { feedback: "false_positive", category: "not_a_scam" }), NOW);
      await f.repo.file(report("u3", { feedback: "false_positive", category: "not_a_scam" }), NOW);
      for (const r of [a, b]) await f.repo.moderate(r.report.id, decision("confirmed"));
      const ev = await f.repo.forEntity(entity.id, NOW);
      expect(ev).toMatchObject({ reporters: 2, false_positive_reports: 1, categories: ["phishing"] });
      expect(ev?.weighted).toBeCloseTo(CONFIRMED_REPORT_TRUST, 9);
    });

    it("records decisions: the same one again changes nothing, another replaces it; rejected reports never count", async () => {
      const { report: r } = await f.repo.file(report("u1", { related_entities: ["wallet:0xabc", "domain:b.example"] }), daysAgo(3));
      const first = await f.repo.moderate(r.id, decision("confirmed", daysAgo(2), null, "acc_op1"));
      const again = await f.repo.moderate(r.id, decision("confirmed", daysAgo(1), null, "acc_op2"));
      expect(again).toEqual({ report: first?.report, previous_status: "confirmed" });
      expect(await f.repo.confirmedRelated(entity.id)).toEqual(["domain:b.example", "wallet:0xabc"]);
      const rejected = await f.repo.moderate(r.id, decision("rejected", daysAgo(1), "the wallet is the victim's", "acc_op2"));
      expect(rejected?.previous_status).toBe("confirmed");
      expect(await f.repo.get(r.id)).toMatchObject({ moderation_status: "rejected", moderated_at: daysAgo(1).toISOString(), moderated_by: "acc_op2", moderation_reason: "the wallet is the victim's" });
      const reason = await f.repo.moderate(r.id, decision("rejected", NOW, "spam", "acc_op1"));
      expect(reason?.report).toMatchObject({ moderation_reason: "spam", moderated_at: NOW.toISOString(), moderated_by: "acc_op1" });
      expect(await f.repo.forEntity(entity.id, NOW)).toBeNull();
      expect(await f.repo.confirmedRelated(entity.id)).toEqual([]);
      expect(await f.repo.moderate("rep_unknown", decision("confirmed"))).toBeNull();
      expect(await f.repo.forEntity("domain:never-reported.example", NOW)).toBeNull();
    });

    it("lists the queue oldest first, by status and entity, a page at a time", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await f.repo.file(report(`u${i}`), daysAgo(10 - i))).report.id);
      await f.repo.file(report("u0", { entity: other("x") }), daysAgo(20));
      await f.repo.moderate(ids[1] as string, decision("rejected", NOW, "no evidence"));
      const all = await f.repo.list({ entity_id: entity.id });
      expect(all.items.map((r) => r.id)).toEqual(ids);
      expect(all.next_cursor).toBeNull();
      const p1 = await f.repo.list({ entity_id: entity.id, status: "unverified", limit: 2 });
      expect(p1.items.map((r) => r.id)).toEqual([ids[0], ids[2]]);
      expect(p1.next_cursor).toEqual(expect.any(String));
      const p2 = await f.repo.list({ entity_id: entity.id, status: "unverified", limit: 2, cursor: p1.next_cursor });
      expect(p2.items.map((r) => r.id)).toEqual([ids[3], ids[4]]);
      expect(p2.next_cursor).toBeNull();
      const rejected = await f.repo.list({ entity_id: entity.id, status: "rejected" });
      expect(rejected.items).toEqual([expect.objectContaining({ id: ids[1], moderation_reason: "no evidence" })]);
      expect((await f.repo.list({ entity_id: other("x").id })).items).toHaveLength(1);
      await expect(f.repo.list({ cursor: "zz" })).rejects.toThrow(InvalidCursorError);
    });
  });
}
