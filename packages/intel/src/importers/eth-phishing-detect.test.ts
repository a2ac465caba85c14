import { describe, expect, it } from "vitest";
import { parseEthPhishingDetect } from "./eth-phishing-detect.js";

const src = { source: "eth-phishing-detect@test" };
const config = (o: object) => JSON.stringify({ version: 2, tolerance: 2, fuzzylist: [], whitelist: [], blacklist: [], ...o });

describe("parseEthPhishingDetect", () => {
  it("maps whitelist to allow, blacklist to block and fuzzylist to protected brands", () => {
    const r = parseEthPhishingDetect(
      config({ fuzzylist: ["metamask.io"], whitelist: ["metamask.com"], blacklist: ["metamask-wallet.xyz", "Myetherwa11et.com"] }),
      src,
    );
    expect(r.records).toEqual([
      { value: "metamask.com", type: "domain", list: "allow", label: "legitimate site (whitelist)", source: "eth-phishing-detect@test" },
      { value: "metamask-wallet.xyz", type: "domain", list: "block", label: "phishing site (blacklist)", source: "eth-phishing-detect@test" },
      { value: "myetherwa11et.com", type: "domain", list: "block", label: "phishing site (blacklist)", source: "eth-phishing-detect@test" },
      { value: "metamask.io", type: "domain", list: "allow", label: "protected brand (fuzzylist)", source: "eth-phishing-detect@test" },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it("accepts a config with some lists missing", () => {
    const r = parseEthPhishingDetect(JSON.stringify({ blacklist: ["a.com"] }), src);
    expect(r.records).toHaveLength(1);
    expect(r.skipped).toEqual([]);
  });

  it("reports invalid JSON as a whole-input problem", () => {
    const r = parseEthPhishingDetect("{ not json", src);
    expect(r.records).toEqual([]);
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]?.line).toBe(0);
    expect(r.skipped[0]?.reason).toMatch(/^invalid JSON/);
  });

  it("rejects JSON that is not a config object", () => {
    expect(parseEthPhishingDetect("[]", src).skipped[0]?.reason).toMatch(/expected a JSON object/);
    expect(parseEthPhishingDetect("null", src).skipped[0]?.reason).toMatch(/expected a JSON object/);
    expect(parseEthPhishingDetect('{"foo": []}', src).skipped[0]?.reason).toMatch(/none of/);
  });

  it("reports a list that is not an array and keeps the others", () => {
    const r = parseEthPhishingDetect(config({ whitelist: "metamask.io", blacklist: ["bad.com"] }), src);
    expect(r.records.map((x) => x.value)).toEqual(["bad.com"]);
    expect(r.skipped).toEqual([{ line: 0, reason: '"whitelist" is not an array' }]);
  });

  it("reports bad entries by list and position", () => {
    const r = parseEthPhishingDetect(config({ blacklist: ["ok.com", 42, "", "two words.com", "OK.com"] }), src);
    expect(r.records.map((x) => x.value)).toEqual(["ok.com"]);
    expect(r.skipped).toEqual([
      { line: 2, reason: "blacklist[1] is not a string" },
      { line: 3, reason: "blacklist[2]: empty value" },
      { line: 4, reason: "blacklist[3]: contains whitespace" },
      { line: 5, reason: "blacklist[4]: duplicate of blacklist[0]" },
    ]);
  });

  it("keeps a domain that is both whitelisted and blacklisted, so core can apply allow-first", () => {
    const r = parseEthPhishingDetect(config({ whitelist: ["x.com"], blacklist: ["x.com"] }), src);
    expect(r.records.map((x) => x.list)).toEqual(["allow", "block"]);
  });
});
