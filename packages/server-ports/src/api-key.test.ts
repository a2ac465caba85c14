import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiKeyFromSecret, apiKeyHint, formatApiKey, hashApiKey, isWellFormedApiKey } from "./api-key.js";

const bytes = (seed: number) => Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) & 0xff);

describe("API keys", () => {
  it("have the documented shape and a valid checksum", () => {
    const key = formatApiKey(bytes(1));
    expect(key).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });
  it("reject any single-character typo without a lookup", () => {
    const key = formatApiKey(bytes(2));
    fc.assert(fc.property(fc.integer({ min: 9, max: key.length - 1 }), fc.constantFrom(..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"), (i, ch) => {
      fc.pre(key[i] !== ch);
      return !isWellFormedApiKey(key.slice(0, i) + ch + key.slice(i + 1));
    }), { numRuns: 500 });
  });
  it.each(["", "svc_live_", "svc_test_" + "a".repeat(38), "x".repeat(47), "svc_live_" + "a".repeat(37) + "!"])("rejects %j", (k) => {
    expect(isWellFormedApiKey(k)).toBe(false);
  });
  it("hashes with SHA-256 and hints without revealing the key", () => {
    const key = formatApiKey(bytes(3));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(9));
    expect(apiKeyHint(key)).toBe(`${key.slice(0, 13)}…`);
  });
  it("derives the same bootstrap key from the same secret", () => {
    expect(apiKeyFromSecret("a-long-enough-bootstrap-secret-0001")).toBe(apiKeyFromSecret("a-long-enough-bootstrap-secret-0001"));
    expect(apiKeyFromSecret("a-long-enough-bootstrap-secret-0001")).not.toBe(apiKeyFromSecret("a-long-enough-bootstrap-secret-0002"));
    expect(isWellFormedApiKey(apiKeyFromSecret("x".repeat(32)))).toBe(true);
  });
  it("refuses too little randomness", () => expect(() => formatApiKey(new Uint8Array(8))).toThrow(RangeError));
});
