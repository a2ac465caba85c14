import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IntelMatch, IntelRecord, IntelStore } from "@svc/core";
import { uniqueId } from "../audit-builders.js";
import { entityOf } from "../builders.js";

const sorted = (m: readonly IntelMatch[]) => [...m].sort((a, b) => `${a.matched_value}|${a.list}|${a.source}`.localeCompare(`${b.matched_value}|${b.list}|${b.source}`));

export function intelStoreContract(name: string, make: () => Promise<{ store: IntelStore; close(): Promise<void> }>): void {
  describe(`IntelStore contract: ${name}`, () => {
    let f: { store: IntelStore; close(): Promise<void> };
    /** A registrable domain unique to the test. */
    let evil: string;
    let source: string;
    const block = (type: IntelRecord["type"], value: string, extra: Partial<IntelRecord> = {}): IntelRecord => ({ type, value, list: "block", label: "phishing", source, ...extra });
    beforeEach(async () => {
      f = await make();
      evil = `evil${uniqueId("").replaceAll("_", "").toLowerCase()}.com`;
      source = uniqueId("feed");
    });
    afterEach(async () => {
      await f.close();
    });

    it("matches a listed domain exactly", async () => {
      await f.store.upsert([block("domain", evil, { added_at: "2026-10-05T00:00:00.000Z" })]);
      expect(await f.store.lookup(entityOf(evil))).toEqual([{ ...block("domain", evil), added_at: "2026-10-05T00:00:00.000Z", matched_on: "exact", matched_value: evil }]);
    });

    it("matches every parent domain by whole labels, never by substring", async () => {
      await f.store.upsert([block("domain", evil)]);
      const sub = await f.store.lookup(entityOf(`a.b.${evil}`));
      expect(sub).toEqual([{ ...block("domain", evil), matched_on: "parent", matched_value: evil }]);
      expect(await f.store.lookup(entityOf(`not${evil}`))).toEqual([]);
      expect(await f.store.lookup(entityOf(`${evil.replace(".com", "")}.com.au`))).toEqual([]);
    });

    it("matches URLs and e-mail addresses through their host", async () => {
      await f.store.upsert([block("domain", `login.${evil}`)]);
      expect((await f.store.lookup(entityOf(`https://x.login.${evil}/reset?u=1`))).map((m) => m.matched_value)).toEqual([`login.${evil}`]);
      expect((await f.store.lookup(entityOf(`help@login.${evil}`))).map((m) => [m.matched_on, m.matched_value])).toEqual([["parent", `login.${evil}`]]);
      expect(await f.store.lookup(entityOf(`https://${evil}/`))).toEqual([]);
    });

    it("matches a listed URL, wallet or e-mail exactly, and each parent of the host too", async () => {
      const url = entityOf(`https://pay.${evil}/wallet`);
      const wallet = entityOf(`0x${"5a".repeat(20)}`, "wallet");
      await f.store.upsert([block("url", url.value), block("wallet", wallet.value, { label: "drainer" }), block("domain", evil, { list: "allow", label: "official" })]);
      expect(sorted(await f.store.lookup(url))).toEqual(sorted([
        { ...block("url", url.value), matched_on: "exact", matched_value: url.value },
        { ...block("domain", evil, { list: "allow", label: "official" }), matched_on: "parent", matched_value: evil },
      ]));
      expect(await f.store.lookup(wallet)).toEqual([{ ...block("wallet", wallet.value, { label: "drainer" }), matched_on: "exact", matched_value: wallet.value }]);
    });

    it("counts added and updated records, and replaces a record of the same source and list", async () => {
      const other = uniqueId("feed");
      expect(await f.store.upsert([block("domain", evil), block("domain", `x.${evil}`), block("domain", evil, { source: other })])).toEqual({ added: 3, updated: 0 });
      expect(await f.store.upsert([block("domain", evil, { label: "malware" }), block("domain", `y.${evil}`)])).toEqual({ added: 1, updated: 1 });
      expect(await f.store.upsert([block("domain", `z.${evil}`), block("domain", `z.${evil}`, { label: "again" })])).toEqual({ added: 1, updated: 1 });
      const labels = sorted(await f.store.lookup(entityOf(evil))).map((m) => [m.source, m.label]);
      expect(labels).toEqual(sorted([
        { ...block("domain", evil, { label: "malware" }), matched_on: "exact", matched_value: evil },
        { ...block("domain", evil, { source: other }), matched_on: "exact", matched_value: evil },
      ]).map((m) => [m.source, m.label]));
    });

    it("reports a data version naming each source's newest entry", async () => {
      await f.store.upsert([block("domain", evil, { added_at: "2026-10-05T00:00:00.000Z" }), block("domain", `b.${evil}`, { added_at: "2026-10-07T00:00:00.000Z" })]);
      expect(await f.store.version()).toContain(`${source}@2026-10-07`);
    });
  });
}
