import { randomBytes } from "node:crypto";
import type { CommunityReport } from "@svc/bot-kernel";
import { formatApiKey, hashApiKey } from "@svc/server-ports";
import { InMemoryAccountRepository, InMemoryApiKeyRepository, InMemoryReportRepository } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { ApiKeyPlanResolver, botDataDirInUseLine, ReportRepositorySink } from "./bot-composition.js";
import { DataDirInUseError } from "./data-dir-lock.js";

const NOW = new Date("2026-03-02T09:00:00.000Z");
const newKey = (): string => formatApiKey(randomBytes(32));

describe("ReportRepositorySink: /report into the API's report store", () => {
  const report = (over: Partial<CommunityReport> = {}): CommunityReport => ({
    entity: { type: "domain", value: "paypa1.com", id: "domain:paypa1.com" },
    category: "phishing",
    reporter: { platform: "telegram", userId: "200" },
    channel: { platform: "telegram", chatId: "-1001234567890" },
    reportedAt: NOW.toISOString(),
    ...over,
  });

  it("files the report as the chat user, with the chat it came from, and answers the stored id", async () => {
    const repo = new InMemoryReportRepository();
    const { id } = await new ReportRepositorySink(repo).file(report());
    expect(await repo.get(id)).toMatchObject({
      id,
      reporter_id: "telegram:200",
      entity: { type: "domain", value: "paypa1.com", id: "domain:paypa1.com" },
      category: "phishing",
      feedback: null,
      description: "Filed from telegram chat -1001234567890",
      moderation_status: "unverified",
      created_at: NOW.toISOString(),
    });
    expect(await repo.forEntity("domain:paypa1.com", NOW)).toBeNull();
    await repo.moderate(id, { status: "confirmed", by: "acc_admin", reason: null, at: NOW });
    expect(await repo.forEntity("domain:paypa1.com", NOW)).toMatchObject({ reporters: 1, categories: ["phishing"] });
  });

  it("keeps appeals as feedback, and counts one user once however often they report", async () => {
    const repo = new InMemoryReportRepository();
    const sink = new ReportRepositorySink(repo);
    const first = await sink.file(report());
    const again = await sink.file(report({ category: "scam", feedback: "false_positive", reportedAt: new Date(NOW.getTime() + 60_000).toISOString() }));
    expect(again.id).toBe(first.id);
    expect(await repo.get(first.id)).toMatchObject({ category: "scam", feedback: "false_positive" });
    const other = await sink.file(report({ reporter: { platform: "telegram", userId: "300" } }));
    // Chat reports wait in the moderation queue like any other; once confirmed they count.
    expect(await repo.forEntity("domain:paypa1.com", NOW)).toBeNull();
    for (const id of [first.id, other.id]) await repo.moderate(id, { status: "confirmed", by: "acc_admin", reason: null, at: NOW });
    expect(await repo.forEntity("domain:paypa1.com", NOW)).toMatchObject({ reporters: 2, false_positive_reports: 1 });
  });
});

describe("ApiKeyPlanResolver: /connect against the API's keys", () => {
  async function setup() {
    const accounts = new InMemoryAccountRepository();
    const keys = new InMemoryApiKeyRepository();
    await accounts.create({ id: "acc_starter", name: "Starter Co", plan: "starter" }, NOW);
    const add = async (accountId: string, plan: "free" | "starter" | "pro" | null = null) => {
      const key = newKey();
      const record = await keys.create({ account_id: accountId, key_hash: hashApiKey(key), prefix: key.slice(0, 12), plan }, NOW);
      return { key, record };
    };
    return { accounts, keys, add, resolver: new ApiKeyPlanResolver(keys, accounts) };
  }

  it("answers the account's plan, or the key's own plan when it has one", async () => {
    const t = await setup();
    expect(await t.resolver.planForKey((await t.add("acc_starter")).key)).toBe("starter");
    expect(await t.resolver.planForKey((await t.add("acc_starter", "pro")).key)).toBe("pro");
    expect(await t.resolver.planForKey((await t.add("acc_starter", "free")).key)).toBe("free");
  });

  it("answers null for an unknown key, a revoked key, and a key whose account is gone", async () => {
    const t = await setup();
    expect(await t.resolver.planForKey(newKey())).toBeNull();
    const { key, record } = await t.add("acc_starter");
    expect(await t.keys.revoke("acc_starter", record.id, NOW)).toBe(true);
    expect(await t.resolver.planForKey(key)).toBeNull();
    expect(await t.resolver.planForKey((await t.add("acc_deleted")).key)).toBeNull();
  });

  it("accepts the bootstrap key while the store does not know it, and follows the store once it does", async () => {
    const t = await setup();
    const bootstrapKey = newKey();
    const resolver = new ApiKeyPlanResolver(t.keys, t.accounts, { bootstrap: { keyHash: hashApiKey(bootstrapKey), plan: "pro" } });
    expect(await resolver.planForKey(bootstrapKey)).toBe("pro");
    expect(await resolver.planForKey(newKey())).toBeNull();
    // The API registered it in the shared database, then an admin revoked it.
    const record = await t.keys.create({ account_id: "acc_starter", key_hash: hashApiKey(bootstrapKey), prefix: "svc_live_" }, NOW);
    expect(await resolver.planForKey(bootstrapKey)).toBe("starter");
    await t.keys.revoke("acc_starter", record.id, NOW);
    expect(await resolver.planForKey(bootstrapKey)).toBeNull();
  });

  it("looks the key up by its SHA-256 only", async () => {
    const t = await setup();
    const { key } = await t.add("acc_starter");
    const asked: string[] = [];
    const spying = { ...t.keys, findByHash: (h: string) => (asked.push(h), t.keys.findByHash(h)) } as typeof t.keys;
    await new ApiKeyPlanResolver(spying, t.accounts).planForKey(key);
    expect(asked).toEqual([hashApiKey(key)]);
  });
});

describe("botDataDirInUseLine: a bot started on a data directory another process holds", () => {
  it("answers one line naming the directory, the holder and DATABASE_URL; null for other errors", () => {
    const held = new Error("could not open the database", { cause: new DataDirInUseError("/srv/svc/.svc/pgdata", 4242, null) });
    const line = botDataDirInUseLine("./.svc", held);
    expect(line).toBe(
      "svc: the data directory ./.svc is in use by another svc process (pid 4242); stop it, or run the bot on the API's database with DATABASE_URL (or give it its own SVC_DATA_DIR, which knows only the bootstrap key)",
    );
    expect(botDataDirInUseLine("./.svc", new Error("disk full"))).toBeNull();
  });
});
