import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AccountRepository, ApiKeyRepository } from "@svc/server-ports";
import { uniqueId } from "../audit-builders.js";

const NOW = new Date("2026-11-01T10:00:00.000Z");

export function accountRepositoryContract(name: string, make: () => Promise<{ repo: AccountRepository; close(): Promise<void> }>): void {
  describe(`AccountRepository contract: ${name}`, () => {
    let f: { repo: AccountRepository; close(): Promise<void> };
    beforeEach(async () => {
      f = await make();
    });
    afterEach(async () => {
      await f.close();
    });

    it("creates an account with a generated id and reads it back", async () => {
      const a = await f.repo.create({ name: "Acme", plan: "starter" }, NOW);
      expect(a).toEqual({ id: expect.stringMatching(/^acc_/), name: "Acme", plan: "starter", role: "customer", created_at: NOW.toISOString() });
      expect(await f.repo.get(a.id)).toEqual(a);
    });

    it("keeps the operator role", async () => {
      const a = await f.repo.create({ name: "Ops", plan: "pro", role: "operator" }, NOW);
      expect((await f.repo.get(a.id))?.role).toBe("operator");
    });

    it("keeps a given id and refuses it twice", async () => {
      const id = uniqueId("acc");
      await f.repo.create({ id, name: "One", plan: "free" }, NOW);
      await expect(f.repo.create({ id, name: "Two", plan: "pro" }, NOW)).rejects.toThrow();
      expect((await f.repo.get(id))?.name).toBe("One");
    });

    it("answers null for an unknown account", async () => {
      expect(await f.repo.get(uniqueId("acc"))).toBeNull();
    });
  });
}

export interface ApiKeyFixture {
  readonly repo: ApiKeyRepository;
  readonly accounts: AccountRepository;
  close(): Promise<void>;
}

export function apiKeyRepositoryContract(name: string, make: () => Promise<ApiKeyFixture>): void {
  describe(`ApiKeyRepository contract: ${name}`, () => {
    let f: ApiKeyFixture;
    let account: string;
    beforeEach(async () => {
      f = await make();
      account = (await f.accounts.create({ name: "Keys Ltd", plan: "free" }, NOW)).id;
    });
    afterEach(async () => {
      await f.close();
    });
    const hash = (): string => Array.from({ length: 64 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");

    it("stores a key by its hash and finds it", async () => {
      const key_hash = hash();
      const k = await f.repo.create({ account_id: account, key_hash, prefix: "svc_live_ab12" }, NOW);
      expect(k).toEqual({ id: expect.stringMatching(/^key_/), account_id: account, key_hash, prefix: "svc_live_ab12", name: null, plan: null, created_at: NOW.toISOString(), revoked_at: null });
      expect(await f.repo.findByHash(key_hash)).toEqual(k);
      expect(await f.repo.findByHash(hash())).toBeNull();
    });

    it("keeps a key's name (its label)", async () => {
      const k = await f.repo.create({ account_id: account, key_hash: hash(), prefix: "svc_live_n", name: "ci" }, NOW);
      expect(k.name).toBe("ci");
      expect((await f.repo.findByHash(k.key_hash))?.name).toBe("ci");
      expect((await f.repo.list(account)).find((x) => x.id === k.id)?.name).toBe("ci");
    });

    it("keeps a per-key plan", async () => {
      const k = await f.repo.create({ account_id: account, key_hash: hash(), prefix: "svc_live_x", plan: "pro" }, NOW);
      expect((await f.repo.findByHash(k.key_hash))?.plan).toBe("pro");
    });

    it("refuses a duplicate hash and an unknown account", async () => {
      const key_hash = hash();
      await f.repo.create({ account_id: account, key_hash, prefix: "p" }, NOW);
      await expect(f.repo.create({ account_id: account, key_hash, prefix: "p" }, NOW)).rejects.toThrow();
      await expect(f.repo.create({ account_id: uniqueId("acc"), key_hash: hash(), prefix: "p" }, NOW)).rejects.toThrow();
    });

    it("lists an account's keys oldest first", async () => {
      const a = await f.repo.create({ account_id: account, key_hash: hash(), prefix: "a" }, NOW);
      const b = await f.repo.create({ account_id: account, key_hash: hash(), prefix: "b" }, new Date(NOW.getTime() + 1000));
      const other = (await f.accounts.create({ name: "Other", plan: "free" }, NOW)).id;
      await f.repo.create({ account_id: other, key_hash: hash(), prefix: "c" }, NOW);
      expect((await f.repo.list(account)).map((k) => k.id)).toEqual([a.id, b.id]);
    });

    it("revokes a key once, only for its own account, and still finds it with revoked_at set", async () => {
      const k = await f.repo.create({ account_id: account, key_hash: hash(), prefix: "r" }, NOW);
      const later = new Date(NOW.getTime() + 60_000);
      const other = (await f.accounts.create({ name: "Intruder", plan: "free" }, NOW)).id;
      expect(await f.repo.revoke(other, k.id, later)).toBe(false);
      expect((await f.repo.findByHash(k.key_hash))?.revoked_at).toBeNull();
      expect(await f.repo.revoke(account, k.id, later)).toBe(true);
      expect(await f.repo.revoke(account, k.id, later)).toBe(false);
      expect((await f.repo.findByHash(k.key_hash))?.revoked_at).toBe(later.toISOString());
      expect((await f.repo.list(account))[0]?.revoked_at).toBe(later.toISOString());
    });
  });
}
