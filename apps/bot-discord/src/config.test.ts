import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { applicationIdFromToken, parseConfig } from "./config.js";

const BOT_ID = "1100000000000000001";
const TOKEN = `${Buffer.from(BOT_ID).toString("base64url")}.GfakeT.${"x".repeat(27)}`;

describe("config", () => {
  it("reads the application id out of the token, or takes it as given", () => {
    expect(applicationIdFromToken(TOKEN)).toBe(BOT_ID);
    expect(parseConfig({ DISCORD_TOKEN: TOKEN }).DISCORD_APPLICATION_ID).toBe(BOT_ID);
    expect(parseConfig({ DISCORD_TOKEN: TOKEN, DISCORD_APPLICATION_ID: "1100000000000000009" }).DISCORD_APPLICATION_ID).toBe("1100000000000000009");
  });

  it("names each bad variable", () => {
    expect(() => parseConfig({ DISCORD_TOKEN: "nope" })).toThrow(/DISCORD_TOKEN does not look like a Discord bot token/u);
    expect(() => parseConfig({ DISCORD_TOKEN: TOKEN, DISCORD_PUBLIC_KEY: "xyz" })).toThrow(/DISCORD_PUBLIC_KEY/u);
    expect(() => parseConfig({ DISCORD_TOKEN: TOKEN, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/u);
  });

  it("a missing token stops the bot with one clear line, not a stack trace", () => {
    const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("DISCORD_")));
    const r = spawnSync(process.execPath, [main], { env, encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("DISCORD_TOKEN is missing");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  }, 30_000);
});
