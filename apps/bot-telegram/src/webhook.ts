import { createHash, timingSafeEqual } from "node:crypto";
import { webhookCallback, type Bot } from "grammy";
import { Hono } from "hono";

export const SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";

/**
 * Compares in constant time whatever the lengths: both sides are hashed to 32 bytes first,
 * so neither the length nor the first differing byte of the secret leaks through timing.
 */
export function secretMatches(given: string | undefined, expected: string): boolean {
  const a = createHash("sha256").update(given ?? "").digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given !== undefined;
}

/**
 * The webhook route. Telegram sends the secret given to setWebhook in a header; anything else
 * posting here is refused with 401 before the body is even read.
 */
export function createWebhookApp(bot: Bot, secret: string, path = "/telegram/webhook"): Hono {
  const app = new Hono();
  const handle = webhookCallback(bot, "hono", { secretToken: secret, onTimeout: "return", timeoutMilliseconds: 55_000 });
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.post(path, async (c) => {
    if (!secretMatches(c.req.header(SECRET_HEADER), secret)) return c.json({ error: "unauthorized" }, 401);
    return handle(c);
  });
  return app;
}
