import { describe, expect, it } from "vitest";
import { parseEntity } from "../entities/parse-entity.js";
import type { Entity } from "../entities/types.js";
import { InMemoryIntelIndex } from "./intel-index.js";

const e = (s: string): Entity => {
  const r = parseEntity(s);
  if (!r.ok) throw new Error(r.error.message);
  return r.entity;
};

describe("InMemoryIntelIndex", () => {
  const index = InMemoryIntelIndex.from([
    { type: "domain", value: "evil.com", list: "block", label: "phishing", source: "feed-a", added_at: "2026-10-01T00:00:00Z" },
    { type: "domain", value: "paypal.com", list: "allow", label: "official domain of PayPal", source: "svc-brands" },
    { type: "wallet", value: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", list: "block", label: "drainer", source: "feed-b" },
    { type: "email", value: "scam@example.org", list: "block", label: "scam", source: "feed-a" },
    { type: "url", value: "https://good.example.net/x", list: "block", label: "malware", source: "feed-c" },
  ]);

  it.each([
    ["evil.com", "exact", "evil.com"],
    ["a.b.evil.com", "parent", "evil.com"],
    ["https://login.evil.com/x", "parent", "evil.com"],
    ["user@mail.evil.com", "parent", "evil.com"],
  ])("%s matches %s on %s", (input, on, value) => {
    const m = index.lookupSync(e(input));
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({ list: "block", matched_on: on, matched_value: value, label: "phishing", source: "feed-a", added_at: "2026-10-01T00:00:00.000Z" });
  });

  it.each(["notevil.com", "evil.com.au", "evil.co", "evilcom.net", "my-evil.com"])("%s does not match evil.com (whole labels only)", (input) => {
    expect(index.lookupSync(e(input))).toEqual([]);
  });

  it("matches exact values of other types, case-normalised through parsing", () => {
    expect(index.lookupSync(e("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"))[0]).toMatchObject({ list: "block", label: "drainer" });
    expect(index.lookupSync(e("Scam@Example.org"))[0]).toMatchObject({ list: "block", matched_on: "exact" });
    expect(index.lookupSync(e("https://good.example.net/x"))[0]).toMatchObject({ label: "malware", matched_on: "exact" });
  });

  it("keeps an allow and a block for one value from different sources, and replaces same-source records", () => {
    const i = InMemoryIntelIndex.from([{ type: "domain", value: "x.com", list: "allow", label: "official", source: "brands" }]);
    expect(i.addAll([{ type: "domain", value: "x.com", list: "block", label: "bad", source: "noisy-feed" }])).toEqual({ added: 1, updated: 0 });
    expect(i.addAll([{ type: "domain", value: "x.com", list: "block", label: "worse", source: "noisy-feed" }])).toEqual({ added: 0, updated: 1 });
    expect(i.lookupSync(e("x.com")).map((m) => `${m.list}:${m.label}`).sort()).toEqual(["allow:official", "block:worse"]);
    expect(i.size).toBe(2);
  });

  it("finds every value after its filter has grown many times, and nothing else", () => {
    const i = new InMemoryIntelIndex();
    const name = (k: number): string => `site${k.toString(36)}.com`;
    // Added in batches, so some values go into a filter that a later batch replaces.
    for (let from = 0; from < 20_000; from += 1_500) {
      const batch = Array.from({ length: Math.min(1_500, 20_000 - from) }, (_, k) => name(from + k));
      i.addAll(batch.map((value) => ({ type: "domain" as const, value, list: "block" as const, label: "phishing", source: "feed" })));
    }
    expect(i.size).toBe(20_000);
    for (let k = 0; k < 22_000; k++) expect(i.lookupSync(e(name(k))).length, name(k)).toBe(k < 20_000 ? 1 : 0);
    expect(i.lookupSync(e("a.b.site1.com"))[0]).toMatchObject({ matched_on: "parent", matched_value: "site1.com" });
  });

  it("reports a data version from the newest entry per source", async () => {
    expect(await index.version()).toBe("feed-a@2026-10-01");
  });
});
