import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNpmScript, type RunningScript } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeSlackApi, type FakeSlackApi } from "./fake-slack-api.js";
import { sign, SIGNING_SECRET } from "./test-harness.js";

const TEAM = "T0START001";
const DM = "D0START001";
const USER = { id: "U0START001", name: "sam", realName: "Sam" };

/**
 * The README's start command (`npm run bot:slack`) with the app's credentials in the
 * environment, against the fake Web API on 127.0.0.1: the process listens, answers Slack's
 * signed requests (and refuses forged ones), installs through OAuth, and answers a direct
 * message through the Web API.
 */
describe("npm run bot:slack", () => {
  let api: FakeSlackApi;
  let bot: RunningScript | null = null;
  let base = "";
  const dataDir = mkdtempSync(join(tmpdir(), "svc-slack-start-"));

  beforeAll(async () => {
    api = await startFakeSlackApi();
    api.users.set(USER.id, USER);
    api.joined.add(DM);
    bot = await startNpmScript(
      "bot:slack",
      {
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_CLIENT_ID: "1111.2222",
        SLACK_CLIENT_SECRET: "c".repeat(32),
        SLACK_TOKEN_KEY: "k".repeat(40),
        SLACK_REDIRECT_URL: "https://svc.example/slack/oauth_redirect",
        SLACK_API_URL: api.url,
        SVC_DATA_DIR: dataDir,
        HOST: "127.0.0.1",
        PORT: "0",
      },
      (line) => {
        const m = /listening on 127\.0\.0\.1:(\d+)/u.exec(line);
        return m ? Number(m[1]) : null;
      },
    );
    base = `http://127.0.0.1:${bot.port}`;
  }, 240_000);

  afterAll(async () => {
    await bot?.stop();
    await api?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const signed = (body: string, contentType = "application/json", secret = SIGNING_SECRET): Promise<Response> => {
    const ts = Math.floor(Date.now() / 1000);
    return fetch(`${base}/slack/events`, { method: "POST", headers: { "content-type": contentType, "x-slack-request-timestamp": String(ts), "x-slack-signature": sign(body, ts, secret) }, body });
  };

  it("answers Slack's signed url_verification and refuses a forged request", async () => {
    const ok = await signed(JSON.stringify({ type: "url_verification", token: "x", challenge: "start-challenge-1" }));
    expect(await ok.json()).toEqual({ challenge: "start-challenge-1" });
    const forged = await signed(JSON.stringify({ type: "url_verification", token: "x", challenge: "start-challenge-2" }), "application/json", "0".repeat(32));
    expect(forged.status).toBe(401);
    expect(bot?.output()).toMatch(/"storage":"pglite:/u);
  });

  it("installs through OAuth and answers a direct message through the Web API", async () => {
    const start = await fetch(`${base}/slack/install`, { redirect: "manual" });
    expect(start.status).toBe(302);
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    api.codes.set("start-code", { access_token: "xoxb-3-4-startup", token_type: "bot", scope: "commands,chat:write", bot_user_id: "U0BOTSTART", app_id: "A0APP", team: { id: TEAM, name: "Start" }, enterprise: null, authed_user: { id: USER.id } });
    const back = await fetch(`${base}/slack/oauth_redirect?code=start-code&state=${state}`, { headers: { cookie } });
    expect(back.status).toBe(200);

    const event = { type: "message", channel: DM, user: USER.id, text: "is <http://paypa1.com|paypa1.com> safe?", ts: `${Math.floor(Date.now() / 1000)}.000100`, channel_type: "im" };
    const res = await signed(JSON.stringify({ token: "legacy", team_id: TEAM, api_app_id: "A0APP", type: "event_callback", event_id: "EvStart1", event_time: Math.floor(Date.now() / 1000), event }));
    expect(res.status).toBe(200);
    const deadline = Date.now() + 60_000;
    while (api.sent("chat.postMessage").length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [reply] = api.calls.filter((c) => c.method === "chat.postMessage");
    expect(reply).toMatchObject({ token: "xoxb-3-4-startup", ok: true, params: expect.objectContaining({ channel: DM }) });
    expect(String(reply?.params.text)).toMatch(/paypa1\[\.\]com/u);
  }, 90_000);
});
