import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("loadConfig: the audit key", () => {
  const url = "postgres://svc@db/svc";

  it("is required in server mode, naming the variable", () => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/SVC_AUDIT_KEY: required with DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: url, SVC_AUDIT_KEY: "k".repeat(32) }).SVC_AUDIT_KEY).toBe("k".repeat(32));
  });

  it("is optional on the embedded default (a key file is made), and must be long enough when given", () => {
    expect(loadConfig({}).SVC_AUDIT_KEY).toBeUndefined();
    expect(() => loadConfig({ SVC_AUDIT_KEY: "short" })).toThrow(/SVC_AUDIT_KEY: must be at least 32 characters/);
  });

  it("reads earlier keys for rotation, comma-separated", () => {
    expect(loadConfig({ SVC_AUDIT_PREVIOUS_KEYS: ` ${"a".repeat(32)} ,${"b".repeat(40)},` }).SVC_AUDIT_PREVIOUS_KEYS).toEqual(["a".repeat(32), "b".repeat(40)]);
    expect(loadConfig({}).SVC_AUDIT_PREVIOUS_KEYS).toEqual([]);
    expect(() => loadConfig({ SVC_AUDIT_PREVIOUS_KEYS: "tiny" })).toThrow(/SVC_AUDIT_PREVIOUS_KEYS/);
  });
});
