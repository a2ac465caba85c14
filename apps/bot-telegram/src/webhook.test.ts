import { describe, expect, it } from "vitest";
import { createHarness, GROUP_ID, MEMBER } from "./test-harness.js";
import { createWebhookApp, SECRET_HEADER, secretMatches } from "./webhook.js";

const SECRET = "s3cr3t_s3cr3t_s3cr3t_s3cr3t_s3cr3t";

function update(text: string) {
  return {
    update_id: 1,
    message: { message_id: 1, date: 0, chat: { id: GROUP_ID, type: "supergroup", title: "G" }, from: MEMBER, text, entities: [{ type: "bot_command", offset: 0, length: 7 }] },
  };
}

describe("webhook route (Hono)", () => {
  it.each([
    ["no header", undefined],
    ["a forged secret", "s3cr3t_s3cr3t_s3cr3t_s3cr3t_s3cr3X"],
    ["a prefix of the secret", SECRET.slice(0, 10)],
    ["an empty header", ""],
  ])("rejects %s with 401 and handles nothing", async (_, header) => {
    const h = createHarness();
    const app = createWebhookApp(h.app.bot, SECRET);
    const res = await app.request("/telegram/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", ...(header !== undefined ? { [SECRET_HEADER]: header } : {}) },
      body: JSON.stringify(update("/status")),
    });
    expect(res.status).toBe(401);
    expect(h.calls).toEqual([]);
  });

  it("accepts the right secret and handles the update", async () => {
    const h = createHarness();
    const app = createWebhookApp(h.app.bot, SECRET);
    const res = await app.request("/telegram/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", [SECRET_HEADER]: SECRET },
      body: JSON.stringify(update("/status")),
    });
    expect(res.status).toBe(200);
    expect(h.lastText()).toMatch(/Status/u);
  });

  it("serves a health check", async () => {
    const h = createHarness();
    const res = await createWebhookApp(h.app.bot, SECRET).request("/healthz");
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it.each([
    [SECRET, true],
    [`${SECRET}x`, false],
    [undefined, false],
    ["", false],
  ])("secretMatches(%j)", (given, expected) => {
    expect(secretMatches(given, SECRET)).toBe(expected);
  });
});
