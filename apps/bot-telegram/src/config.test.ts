import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";

const TOKEN = "123456789:AAEhBOweik6ad6PsVMRxjeQKUEGOtnp2WQ0";

describe("parseConfig", () => {
  it("defaults to long polling on port 8080", () => {
    expect(parseConfig({ TELEGRAM_BOT_TOKEN: TOKEN })).toMatchObject({ TELEGRAM_MODE: "polling", PORT: 8080, TELEGRAM_STARS_STARTER: 1500, SVC_DATA_DIR: "./.svc" });
    expect(parseConfig({ TELEGRAM_BOT_TOKEN: TOKEN }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{}, /TELEGRAM_BOT_TOKEN/u],
    [{ TELEGRAM_BOT_TOKEN: "nope" }, /TELEGRAM_BOT_TOKEN: must look like/u],
    [{ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_MODE: "webhook" }, /TELEGRAM_WEBHOOK_SECRET: is required/u],
    [{ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: "short" }, /TELEGRAM_WEBHOOK_SECRET/u],
    [{ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_MODE: "carrier-pigeon" }, /TELEGRAM_MODE/u],
    [{ TELEGRAM_BOT_TOKEN: TOKEN, PORT: "99999" }, /PORT/u],
    [{ TELEGRAM_BOT_TOKEN: TOKEN, DATABASE_URL: "mysql://db/svc" }, /DATABASE_URL: must be a postgres/u],
  ])("rejects %j naming the variable", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it("accepts webhook mode with a strong secret", () => {
    const c = parseConfig({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_MODE: "webhook", TELEGRAM_WEBHOOK_SECRET: "a".repeat(40), TELEGRAM_WEBHOOK_URL: "https://bot.example.com/telegram/webhook", PORT: "3000" });
    expect(c).toMatchObject({ TELEGRAM_MODE: "webhook", PORT: 3000 });
  });
});
