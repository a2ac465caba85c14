import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig, SETTING_NAMES } from "./api.js";
import { ConfigError } from "./load.js";

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

describe("the billing settings are documented", () => {
  const read = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), "utf8");
  const billing = SETTING_NAMES.filter((n) => n.startsWith("SVC_STRIPE_") || n.startsWith("SVC_BILLING_"));

  it("each SVC_STRIPE_* / SVC_BILLING_* setting is in docs/api.md's billing section and the README's configuration list", () => {
    expect(billing).toEqual(expect.arrayContaining(["SVC_STRIPE_SECRET_KEY", "SVC_STRIPE_API_URL", "SVC_BILLING_RETURN_URL"]));
    const api = read("docs/api.md");
    const section = api.slice(api.indexOf("\n## Billing"), api.indexOf("\n## ", api.indexOf("\n## Billing") + 1));
    const readme = read("README.md");
    const config = readme.slice(readme.indexOf("Configuration is environment variables"));
    expect(billing.filter((n) => !section.includes(`\`${n}\``))).toEqual([]);
    expect(billing.filter((n) => !config.includes(`\`${n}\``))).toEqual([]);
  });
});
