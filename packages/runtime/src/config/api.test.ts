import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig, loadStorageSettings, SETTING_NAMES } from "./api.js";
import { ConfigError } from "./load.js";

describe("loadConfig: the audit key", () => {
  const url = "postgres://svc@db/svc";

  it("is required in server mode, naming the variable", () => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/SVC_AUDIT_KEY: required with DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: url, SVC_AUDIT_KEY: "k".repeat(32) }).SVC_AUDIT_KEY).toBe("k".repeat(32));
  });

  it("is not asked for when only where the data is matters (svc migrate), whose variables are checked as ever", () => {
    expect(loadStorageSettings({ DATABASE_URL: url, SVC_STRIPE_SECRET_KEY: "sk_test_x" })).toEqual({ DATABASE_URL: url, SVC_DATA_DIR: "./.svc" });
    expect(() => loadStorageSettings({ DATABASE_URL: "mysql://db/svc" })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
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

describe("SVC_WEBHOOK_ALLOWED_CIDRS is checked with the other settings", () => {
  it("accepts addresses and ranges, IPv4 and IPv6", () => {
    expect(loadConfig({ SVC_WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8, 10.1.2.3,::1,fd00::/8" }).SVC_WEBHOOK_ALLOWED_CIDRS).toBe("127.0.0.0/8, 10.1.2.3,::1,fd00::/8");
    expect(loadConfig({}).SVC_WEBHOOK_ALLOWED_CIDRS).toBe("");
  });

  it("refuses anything else naming the variable and the item (a stack trace at start before)", async () => {
    for (const bad of ["10.0.0.0/99", "10.0.0.0/8/8", "localhost", "10.0.0.0/x", "::1/129"]) {
      expect(() => loadConfig({ SVC_WEBHOOK_ALLOWED_CIDRS: `127.0.0.1,${bad}` })).toThrow(new RegExp(`SVC_WEBHOOK_ALLOWED_CIDRS: "${bad.replace(/[./]/gu, "\\$&")}" is not an IP address or CIDR range`, "u"));
    }
    const { loadWorkerConfig } = await import("./worker.js");
    expect(() => loadWorkerConfig({ DATABASE_URL: "postgres://svc@db/svc", SVC_AUDIT_KEY: "k".repeat(32), SVC_WEBHOOK_ALLOWED_CIDRS: "10.0.0.0/99" })).toThrow(/SVC_WEBHOOK_ALLOWED_CIDRS: "10\.0\.0\.0\/99"/u);
  });
});

describe("a URL setting with the wrong scheme says which scheme it needs", () => {
  it("http(s) for the API's URLs, https for Telegram's webhook", async () => {
    expect(() => loadConfig({ SVC_PUBLIC_URL: "ftp://svc.example" })).toThrow(/SVC_PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/u);
    expect(() => loadConfig({ SVC_PUBLIC_URL: "svc.example" })).toThrow(/SVC_PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/u);
    const { parseTelegramConfig } = await import("./telegram.js");
    const token = "123456789:AAEhBOweik6ad6PsWZRcXUgPaGFhqOClv5g";
    expect(() => parseTelegramConfig({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_WEBHOOK_URL: "http://bot.example/telegram/webhook" })).toThrow(/TELEGRAM_WEBHOOK_URL: must be an https:\/\/ URL/u);
    expect(parseTelegramConfig({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: "http://127.0.0.1:8081/" }).TELEGRAM_API_ROOT).toBe("http://127.0.0.1:8081");
  });
});
