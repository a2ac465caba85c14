import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_REPORTER_TRUST, type NewReport, type ReportRepository } from "@svc/core";
import { uniqueId } from "../audit-builders.js";

const NOW = new Date("2026-11-01T00:00:00.000Z");
const daysAgo = (d: number): Date => new Date(NOW.getTime() - d * 86_400_000);

export function reportRepositoryContract(name: string, make: () => Promise<{ repo: ReportRepository; close(): Promise<void> }>): void {
  describe(`ReportRepository contract: ${name}`, () => {
    let f: { repo: ReportRepository; close(): Promise<void> };
    let entity: NewReport["entity"];
    const report = (reporter_id: string, extra: Partial<NewReport> = {}): NewReport => ({ reporter_id, entity, category: "phishing", ...extra });
    beforeEach(async () => {
      f = await make();
      const value = `${uniqueId("scam").toLowerCase()}.example`;
      entity = { type: "domain", value, id: `domain:${value}` };
    });
    afterEach(async () => {
      await f.close();
    });

    it("files a report with everything the reporter said", async () => {
      const { report: r, created } = await f.repo.file(report("u1", {
        description: "asks for my seed phrase", evidence_urls: ["https://x.example/shot.png"],
        related_entities: ["wallet:0xabc"], check_id: "chk_1", feedback: "false_negative",
      }), NOW);
      expect(created).toBe(true);
      expect(r).toEqual({
        id: expect.stringMatching(/^rep_/), reporter_id: "u1", entity, category: "phishing",
        description: "asks for my seed phrase", evidence_urls: ["https://x.example/shot.png"], related_entities: ["wallet:0xabc"],
        check_id: "chk_1", feedback: "false_negative", moderation_status: "unverified",
        created_at: NOW.toISOString(), updated_at: NOW.toISOString(),
      });
      expect(await f.repo.get(r.id)).toEqual(r);
      expect(await f.repo.get("rep_unknown")).toBeNull();
    });

    it("counts one report per reporter per entity: a second one replaces the first", async () => {
      const first = await f.repo.file(report("u1"), daysAgo(10));
      const second = await f.repo.file(report("u1", { category: "scam", description: "again" }), NOW);
      expect(second.created).toBe(false);
      expect(second.report.id).toBe(first.report.id);
      expect(second.report).toMatchObject({ category: "scam", description: "again", created_at: daysAgo(10).toISOString(), updated_at: NOW.toISOString() });
      const ev = await f.repo.forEntity(entity.id, NOW);
      expect(ev).toMatchObject({ reporters: 1, categories: ["scam"], false_positive_reports: 0, newest_at: NOW.toISOString() });
      expect(ev?.weighted).toBeCloseTo(DEFAULT_REPORTER_TRUST, 9);
    });

    it("weights reporters by trust and halves a report's weight every 30 days", async () => {
      const trusted = uniqueId("u");
      await f.repo.setReporterTrust(trusted, 1);
      await f.repo.file(report(trusted), daysAgo(30));
      await f.repo.file(report(uniqueId("u"), { category: "scam" }), daysAgo(60));
      const ev = await f.repo.forEntity(entity.id, NOW);
      expect(ev?.reporters).toBe(2);
      expect(ev?.weighted).toBeCloseTo(0.5 + DEFAULT_REPORTER_TRUST * 0.25, 6);
      expect(ev?.categories).toEqual(["phishing", "scam"]);
      expect(ev?.newest_at).toBe(daysAgo(30).toISOString());
      await expect(f.repo.setReporterTrust(trusted, 1.5)).rejects.toThrow(RangeError);
    });

    it("counts verdict disputes apart from reports of abuse", async () => {
      await f.repo.file(report("u1"), NOW);
      await f.repo.file(report("u2", { feedback: "false_positive", category: "not_a_scam" }), NOW);
      const ev = await f.repo.forEntity(entity.id, NOW);
      expect(ev).toMatchObject({ reporters: 2, false_positive_reports: 1, categories: ["phishing"] });
      expect(ev?.weighted).toBeCloseTo(DEFAULT_REPORTER_TRUST, 9);
    });

    it("leaves rejected reports out, and knows nothing of unreported entities", async () => {
      const { report: r } = await f.repo.file(report("u1"), NOW);
      expect(await f.repo.moderate(r.id, "rejected")).toBe(true);
      expect((await f.repo.get(r.id))?.moderation_status).toBe("rejected");
      expect(await f.repo.forEntity(entity.id, NOW)).toBeNull();
      expect(await f.repo.moderate("rep_unknown", "confirmed")).toBe(false);
      expect(await f.repo.forEntity("domain:never-reported.example", NOW)).toBeNull();
    });
  });
}
