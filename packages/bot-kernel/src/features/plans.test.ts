import { formatApiKey } from "@svc/server-ports";
import { describe, expect, it } from "vitest";
import { InMemoryPlanResolver } from "../in-memory-plan-resolver.js";
import { plansFeature, purchaseGrant, purchasesChanged } from "./plans.js";
import { featureKit } from "./test-kit.js";

describe("plans feature", () => {
  it("/connect binds a key's plan by hash and deletes the message carrying the key", async () => {
    const t = featureKit();
    const key = formatApiKey(new Uint8Array(32).fill(7));
    const f = plansFeature(t.services, { plans: new InMemoryPlanResolver().add(key, "pro") });
    const r = await t.run({ id: "1", name: "Alice" });
    await f.commands?.connect?.(r, { name: "connect", apiKey: key });
    const s = await t.settings.get(t.group);
    expect(s?.plan).toMatchObject({ tier: "pro", source: "api_key", boundBy: "1", until: null });
    expect(JSON.stringify(s)).not.toContain(key);
    expect(t.chat.calls[0]).toMatchObject({ op: "delete" });
  });

  it("a purchase never replaces an API-key plan; a recomputation after a refund keeps other purchases", async () => {
    const t = featureKit();
    const base = await t.services.settingsFor(t.group);
    const keyed = { ...base, plan: { tier: "starter" as const, source: "api_key" as const, keyHash: "h", until: null } };
    expect(purchaseGrant(t.services, t.group, t.clock.now(), "pro", 30, "5")(keyed).plan).toEqual(keyed.plan);
    const pay = (id: string, userId: string, paidAt: string, refundedAt: string | null = null) => ({ chargeId: id, platform: "test", userId, chatId: t.group, plan: "pro" as const, amount: 1, currency: "XTR", paidAt, refundedAt });
    const s = await purchasesChanged(t.services, t.group, [pay("a", "1", "2026-03-01T09:00:00.000Z"), pay("b", "5", "2026-03-02T09:00:00.000Z", "2026-03-02T10:00:00.000Z")], 30);
    expect(s.plan).toEqual({ tier: "pro", source: "stars", boundBy: "1", until: "2026-03-31T09:00:00.000Z" });
  });
});
