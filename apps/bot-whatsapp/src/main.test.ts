import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNpmScript, type RunningScript } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_SECRET, FakeGraphApi, messagesDelivery, PHONE_NUMBER_ID, sign, TOKEN, VERIFY_TOKEN } from "./test-harness.js";

const PATH = "/whatsapp/webhook";

/**
 * The README's start command (`npm run bot:whatsapp`) with the app's credentials in the
 * environment, against the fake Graph API on 127.0.0.1: the process listens, answers Meta's
 * verification challenge, refuses an unsigned delivery, and answers a signed private message
 * through the Graph API.
 */
describe("npm run bot:whatsapp", () => {
  let graph: FakeGraphApi;
  let bot: RunningScript | null = null;
  let base = "";
  const dataDir = mkdtempSync(join(tmpdir(), "svc-whatsapp-start-"));

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
    bot = await startNpmScript(
      "bot:whatsapp",
      {
        WHATSAPP_ACCESS_TOKEN: TOKEN,
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
        WHATSAPP_GRAPH_URL: graph.url,
        SVC_DATA_DIR: dataDir,
        HOST: "127.0.0.1",
        PORT: "0",
      },
      (line) => {
        if (!line.startsWith("{")) return null;
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        return entry.msg === "svc WhatsApp bot: webhook listening" && entry.port ? entry.port : null;
      },
    );
    base = `http://127.0.0.1:${bot.port}${PATH}`;
  }, 240_000);

  afterAll(async () => {
    await bot?.stop();
    await graph?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("answers the verification challenge and refuses an unsigned delivery", async () => {
    const ok = await fetch(`${base}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=424242`);
    expect(await ok.text()).toBe("424242");
    const body = JSON.stringify(messagesDelivery([{ id: "wamid.START0", from: "14155550123", body: "hello" }]));
    const unsigned = await fetch(base, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(unsigned.status).toBe(401);
    expect(bot?.output()).toContain('"storage":"pglite:');
  });

  it("answers a signed private message through the Graph API", async () => {
    const body = JSON.stringify(messagesDelivery([{ id: "wamid.START1", from: "14155550123", name: "Sam", body: "is https://paypa1.com/login safe?" }]));
    const res = await fetch(base, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": sign(body) }, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ handled: 1 });
    const [reply] = graph.sent();
    expect(reply).toMatchObject({ to: "14155550123", recipientType: "individual", replyTo: "wamid.START1" });
    expect(reply?.text).toMatch(/paypa1\[\.\]com/u);
    expect(graph.requests[0]?.authorization).toBe(`Bearer ${TOKEN}`);
  }, 60_000);
});
