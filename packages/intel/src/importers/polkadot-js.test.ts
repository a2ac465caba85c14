import { describe, expect, it } from "vitest";
import { parsePolkadotJsAddresses, parsePolkadotJsAll } from "./polkadot-js.js";

const src = { source: "polkadot-js@test" };

describe("parsePolkadotJsAll", () => {
  it("maps deny to block and allow to allow, lower-cased", () => {
    const r = parsePolkadotJsAll(JSON.stringify({ allow: ["polkadot.network"], deny: ["Polkadot-Claim.xyz", "kusama-airdrop.com"] }), src);
    expect(r.records).toEqual([
      { value: "polkadot.network", type: "domain", list: "allow", label: "legitimate site (allow list)", source: "polkadot-js@test" },
      { value: "polkadot-claim.xyz", type: "domain", list: "block", label: "phishing site (deny list)", source: "polkadot-js@test" },
      { value: "kusama-airdrop.com", type: "domain", list: "block", label: "phishing site (deny list)", source: "polkadot-js@test" },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it("reports bad entries by position and keeps the rest", () => {
    const r = parsePolkadotJsAll(JSON.stringify({ deny: ["a.com", 7, "a.com", "bad value", "x".repeat(5000)] }), src);
    expect(r.records.map((x) => x.value)).toEqual(["a.com"]);
    expect(r.skipped.map((s) => s.line)).toEqual([2, 3, 4, 5]);
    expect(r.skipped[1]?.reason).toMatch(/duplicate/);
  });

  it("refuses invalid JSON and other shapes as a whole", () => {
    expect(parsePolkadotJsAll('{"deny": ["a.com"', src).skipped[0]).toMatchObject({ line: 0, reason: expect.stringMatching(/invalid JSON/) });
    expect(parsePolkadotJsAll("[1,2]", src).skipped[0]?.line).toBe(0);
    expect(parsePolkadotJsAll("{}", src).skipped[0]?.reason).toMatch(/neither/);
    expect(parsePolkadotJsAll(JSON.stringify({ deny: "a.com" }), src).skipped[0]).toEqual({ line: 0, reason: '"deny" is not an array' });
  });
});

describe("parsePolkadotJsAddresses", () => {
  it("makes a wallet block record per address, case kept, labelled with the site", () => {
    const r = parsePolkadotJsAddresses(
      JSON.stringify({ "polkadot-gift.com": ["15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", "0xAbC0000000000000000000000000000000000001"], "other.io": ["15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"] }),
      src,
    );
    expect(r.records).toEqual([
      { value: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", type: "wallet", list: "block", label: "address used by polkadot-gift.com", source: "polkadot-js@test" },
      { value: "0xAbC0000000000000000000000000000000000001", type: "wallet", list: "block", label: "address used by polkadot-gift.com", source: "polkadot-js@test" },
    ]);
  });

  it("reports sites that are not arrays and entries that are not strings", () => {
    const r = parsePolkadotJsAddresses(JSON.stringify({ "a.com": "5Grw", "b.com": [1, " "] }), src);
    expect(r.records).toEqual([]);
    expect(r.skipped).toEqual([
      { line: 0, reason: '"a.com" is not an array of addresses' },
      { line: 1, reason: "b.com[0] is not a string" },
      { line: 2, reason: "b.com[1]: empty value" },
    ]);
    expect(parsePolkadotJsAddresses("nope", src).skipped[0]?.line).toBe(0);
  });
});
