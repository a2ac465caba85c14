import { describe, expect, it } from "vitest";
import { InMemoryReportSink } from "../in-memory-report-sink.js";
import { InMemoryStatsStore } from "../in-memory-stats-store.js";
import { reportsFeature } from "./reports.js";
import { featureKit } from "./test-kit.js";

describe("reports feature", () => {
  it("files a report with reporter and channel, counts it, and appeals are logged", async () => {
    const t = featureKit();
    const reports = new InMemoryReportSink();
    const stats = new InMemoryStatsStore();
    const f = reportsFeature(t.services, { reports, stats });
    const r = await t.run({ id: "5", name: "Mallory" });
    await f.commands?.report?.(r, { name: "report", entity: "paypa1.com", category: "phishing" });
    await f.commands?.report?.(r, { name: "report", entity: "docs.python.org", category: "other", feedback: "false_positive" });
    expect(reports.reports.map((x) => [x.entity.id, x.category, x.feedback ?? null, x.reporter.userId, x.channel.chatId])).toEqual([
      ["domain:paypa1.com", "phishing", null, "5", t.group],
      ["domain:docs.python.org", "other", "false_positive", "5", t.group],
    ]);
    expect((await stats.get(t.group)).reports).toBe(2);
    expect(r.replies[0]).toMatch(/paypa1\[\.\]com is reported as phishing/u);
    expect(r.replies[1]).toMatch(/appeal for docs\[\.\]python\[\.\]org is filed/u);
  });

  it("answers a usage line for something that is not an entity, filing nothing", async () => {
    const t = featureKit();
    const reports = new InMemoryReportSink();
    const f = reportsFeature(t.services, { reports, stats: new InMemoryStatsStore() });
    const r = await t.run({ id: "5", name: "Mallory" });
    await f.commands?.report?.(r, { name: "report", entity: "not an entity at all", category: "scam" });
    expect(reports.reports).toEqual([]);
    expect(r.replies[0]).toMatch(/I can't report that[\s\S]*Usage/u);
  });
});
