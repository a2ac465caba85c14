import { InMemoryScreening, type PlanResolver } from "@svc/bot-kernel";
import { apiKeyFromSecret } from "@svc/core";
import { describe, expect, it } from "vitest";
import type { TelegramApp } from "./bot.js";
import { parseConfig } from "./config.js";
import { buildContainer, TOKENS } from "./container.js";

describe("composition root", () => {
  it("builds the app once, and resolves the bootstrap key to a plan", async () => {
    const secret = "b".repeat(40);
    const c = buildContainer(parseConfig({ TELEGRAM_BOT_TOKEN: "123456789:AAEhBOweik6ad6PsVMRxjeQKUEGOtnp2WQ0", SVC_BOOTSTRAP_KEY: secret }), { screening: new InMemoryScreening() });
    const app = c.get<TelegramApp>(TOKENS.app);
    expect(c.get<TelegramApp>(TOKENS.app)).toBe(app);
    expect(app.kernel.queueDepth).toBe(0);
    expect(await c.get<PlanResolver>(TOKENS.plans).planForKey(apiKeyFromSecret(secret))).toBe("pro");
  });
});
