import { InMemoryCheckRepository, anAuditRecord } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { GroupCommitCheckRepository } from "./group-commit.js";

describe("group commit", () => {
  it("commits concurrent saves of one account in few groups, forming one valid chain", async () => {
    const inner = new InMemoryCheckRepository();
    let groups = 0;
    const saveMany = inner.saveMany.bind(inner);
    inner.saveMany = async (rs) => {
      groups++;
      return saveMany(rs);
    };
    const repo = new GroupCommitCheckRepository(inner, 50);
    const saved = await Promise.all(Array.from({ length: 120 }, (_, i) => repo.save(anAuditRecord({ account_id: "acc_g", created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }))));
    expect(saved).toHaveLength(120);
    expect(groups).toBeLessThanOrEqual(4);
    expect(await repo.verifyChain("acc_g")).toEqual({ ok: true, checked: 120, legacy: 0 });
  });

  it("a bad record fails alone; the rest of its group is stored", async () => {
    const inner = new InMemoryCheckRepository();
    const repo = new GroupCommitCheckRepository(inner);
    const dup = anAuditRecord({ account_id: "acc_d" });
    await repo.save(dup);
    const results = await Promise.allSettled([repo.save(anAuditRecord({ account_id: "acc_d" })), repo.save(dup), repo.save(anAuditRecord({ account_id: "acc_d" }))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await repo.verifyChain("acc_d")).toEqual({ ok: true, checked: 3, legacy: 0 });
  });
});
