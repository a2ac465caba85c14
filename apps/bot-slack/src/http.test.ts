import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, CHANNEL, createHarness, ENGINES, MEMBER, PRO_KEY, sign, TEAM, type Harness } from "./test-harness.js";

/**
 * The signed HTTP front against hostile and odd input, Slack's retries, the Web API's error
 * answers, and the per-workspace install and uninstall, all over real HTTP on 127.0.0.1.
 */
describe.each(ENGINES)("Slack HTTP front (%s)", (engine) => {
  let h: Harness;
  beforeAll(async () => {
    // Events are answered after 100 ms at the latest (Slack's limit is 3 s); post() still waits for handling to end.
    h = await createHarness(engine, { ackTimeoutMs: 100 });
    await h.install();
    await h.command(ADMIN, "/svc-connect", PRO_KEY);
    await h.command(ADMIN, "/svc-monitor", "");
  }, 120_000);
  afterAll(() => h?.close());

  const posted = () => h.api.sent("chat.postMessage");
  const scanned = async (chat = `${TEAM}:${CHANNEL}`) => {
    // Counters are written behind the messages (StoreBuffers): what waits is written first.
    await h.rt.app.kernel.flush();
    return Number((await h.db<{ value: string }>(`SELECT value FROM bot_chat_stats WHERE platform = 'slack' AND chat_id = $1 AND counter = 'messages_scanned'`, [chat]))[0]?.value ?? 0);
  };
  const policy = async () => (await h.db<{ policy: string }>(`SELECT policy FROM bot_chat_settings WHERE platform = 'slack' AND chat_id = $1`, [`${TEAM}:${CHANNEL}`]))[0]?.policy;
  const commandBody = (text: string) =>
    new URLSearchParams({ team_id: TEAM, channel_id: CHANNEL, user_id: ADMIN.id, user_name: ADMIN.name, command: "/svc-unmonitor", text, trigger_id: "1.2.3" }).toString();
  const now = () => Math.floor(h.clock.now().getTime() / 1000);

  describe("signature and replay", () => {
    it("answers url_verification with the challenge", async () => {
      const res = await h.post(JSON.stringify({ type: "url_verification", token: "x", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" }), "application/json");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    });

    it("rejects forged, unsigned, stale and future requests with 401 and changes nothing", async () => {
      const before = await scanned();
      const body = commandBody("");
      const ts = now();
      const forged = await h.post(body, "application/x-www-form-urlencoded", { "x-slack-signature": sign(body, ts, "0".repeat(32)) });
      const unsigned = await h.post(body, "application/x-www-form-urlencoded", { "x-slack-signature": "" });
      const stale = await h.post(body, "application/x-www-form-urlencoded", { "x-slack-request-timestamp": String(ts - 301), "x-slack-signature": sign(body, ts - 301) });
      const future = await h.post(body, "application/x-www-form-urlencoded", { "x-slack-request-timestamp": String(ts + 301), "x-slack-signature": sign(body, ts + 301) });
      const tampered = await h.post(body.replace("svc-unmonitor", "svc-monitor"), "application/x-www-form-urlencoded", { "x-slack-signature": sign(body, ts) });
      for (const r of [forged, unsigned, stale, future, tampered]) {
        expect(r.status).toBe(401);
        expect(await r.json()).toMatchObject({ error: "invalid_signature" });
      }
      expect(await policy()).toBe("notify");
      const monitoring = await h.db<{ monitoring: boolean }>(`SELECT monitoring FROM bot_chat_settings WHERE chat_id = $1`, [`${TEAM}:${CHANNEL}`]);
      expect(monitoring[0]?.monitoring).toBe(true);
      expect(await scanned()).toBe(before);
    });

    it("accepts a request 4 minutes old, and rejects the same request replayed", async () => {
      h.clock.advance(1000);
      const event = JSON.stringify({ team_id: TEAM, type: "event_callback", event_id: "EvReplay1", event: { type: "message", channel: CHANNEL, user: MEMBER.id, text: "see paypa1.com", ts: "1772442000.000100", channel_type: "channel" } });
      const ts = now() - 240;
      const headers = { "x-slack-request-timestamp": String(ts), "x-slack-signature": sign(event, ts) };
      const before = posted().length;
      expect((await h.post(event, "application/json", headers)).status).toBe(200);
      expect(posted()).toHaveLength(before + 1);
      const replay = await h.post(event, "application/json", headers);
      expect(replay.status).toBe(401);
      expect(await replay.json()).toMatchObject({ error: "replayed" });
      expect(posted()).toHaveLength(before + 1);
    });
  });

  describe("bad input", () => {
    it("refuses an oversized body with 413 before reading it further", async () => {
      const big = JSON.stringify({ type: "event_callback", event_id: "EvBig", event: { type: "message", text: "x".repeat(300 * 1024) } });
      const res = await h.post(big, "application/json");
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: "payload_too_large" });
    });

    it("answers malformed JSON, a non-object, an unknown content type and an event without id with 400", async () => {
      for (const [body, type] of [["{\"type\":\"event_callback\",", "application/json"], ["[1,2]", "application/json"], ["hello", "text/plain"], ["payload=%7Bnope", "application/x-www-form-urlencoded"]] as const) {
        h.clock.advance(1000);
        const res = await h.post(body, type);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ error: "malformed_body" });
      }
      const res = await h.post(JSON.stringify({ type: "event_callback", event: { type: "message" } }), "application/json");
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_event" });
    });

    it("acknowledges unknown event and payload types without acting", async () => {
      const before = posted().length;
      expect((await h.event({ type: "emoji_changed", subtype: "add", name: "party" })).status).toBe(200);
      expect((await h.post(JSON.stringify({ type: "something_new" }), "application/json")).status).toBe(200);
      expect((await h.event({ type: "message", subtype: "channel_join", channel: CHANNEL, user: MEMBER.id, text: "<@U0MEMBER01> has joined paypa1.com", ts: "1.2" })).status).toBe(200);
      expect(posted()).toHaveLength(before);
      expect(h.errors).toEqual([]);
    });

    it("processes a retried delivery once (X-Slack-Retry-Num)", async () => {
      const before = posted().length;
      const scans = await scanned();
      const event = { type: "message", channel: CHANNEL, user: MEMBER.id, text: "airdrop at claim-airdrop.top", ts: "1772442100.000200", channel_type: "channel" };
      expect((await h.event(event, { eventId: "EvRetry1" })).status).toBe(200);
      h.clock.advance(3000);
      expect((await h.event(event, { eventId: "EvRetry1", retryNum: 1 })).status).toBe(200);
      h.clock.advance(60_000);
      expect((await h.event(event, { eventId: "EvRetry1", retryNum: 2 })).status).toBe(200);
      expect(posted()).toHaveLength(before + 1);
      expect(await scanned()).toBe(scans + 1);
    });
  });

  describe("answering within Slack's 3 s", () => {
    it("acknowledges a slow event in time, finishes it afterwards, and drops Slack's retry of it", async () => {
      h.screening.set("slow-scam.top", "high", "Newly registered lookalike");
      const before = h.api.sent("chat.postMessage").length;
      let release: () => void = () => {};
      h.gate = new Promise<void>((r) => {
        release = r;
      });
      h.clock.advance(1000);
      const body = JSON.stringify({ team_id: TEAM, api_app_id: "A0APP", type: "event_callback", event_id: "EvSlow1", event: { type: "message", channel: CHANNEL, user: MEMBER.id, text: "slow slow-scam.top", ts: "1772443100.000100", channel_type: "channel" } });
      const res = await h.post(body, "application/json", {}, false);
      expect(res.status).toBe(200);
      expect(h.api.sent("chat.postMessage")).toHaveLength(before);
      h.clock.advance(3000);
      expect((await h.post(body, "application/json", { "x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout" }, false)).status).toBe(200);
      release();
      h.gate = null;
      await h.rt.http.idle();
      expect(h.api.sent("chat.postMessage")).toHaveLength(before + 1);
    });
  });

  describe("Web API errors", () => {
    it("waits out ratelimited (429, Retry-After) and posts the warning", async () => {
      h.api.once("chat.postMessage", { status: 429, headers: { "retry-after": "1" }, body: { ok: false, error: "ratelimited" } });
      const before = posted().length;
      await h.message(MEMBER, "paypa1.com again");
      expect(posted()).toHaveLength(before + 2);
      expect(h.errors).toEqual([]);
    });

    it("joins a public channel on not_in_channel and posts; drops channel_not_found quietly", async () => {
      h.api.publicChannels.add("C0RANDOM01");
      await h.command(ADMIN, "/svc-connect", PRO_KEY, "C0RANDOM01");
      await h.command(ADMIN, "/svc-monitor", "", "C0RANDOM01");
      await h.message(MEMBER, "paypa1.com", "C0RANDOM01");
      expect(h.api.sent("conversations.join")).toEqual([expect.objectContaining({ channel: "C0RANDOM01" })]);
      expect(posted().at(-1)).toMatchObject({ channel: "C0RANDOM01" });

      await h.command(ADMIN, "/svc-connect", PRO_KEY, "G0PRIVATE1");
      await h.command(ADMIN, "/svc-monitor", "", "G0PRIVATE1");
      const before = posted().length;
      const res = await h.message(MEMBER, "paypa1.com", "G0PRIVATE1");
      expect(res.status).toBe(200);
      expect(posted()).toHaveLength(before + 1);
      expect(h.api.calls.at(-1)).toMatchObject({ method: "chat.postMessage", params: expect.objectContaining({ channel: "G0PRIVATE1" }) });
      expect(await scanned(`${TEAM}:G0PRIVATE1`)).toBe(1);
      expect(h.errors).toEqual([]);
    });
  });

  describe("installation", () => {
    const TEAM2 = "T0SECOND01";

    it("installs through OAuth with a single-use state bound to the browser, and stores the token sealed", async () => {
      const start = await fetch(`${h.base}/slack/install`, { redirect: "manual" });
      expect(start.status).toBe(302);
      const to = new URL(start.headers.get("location") ?? "");
      expect(to.searchParams.get("client_id")).toBe("1111.2222");
      expect(to.searchParams.get("scope")).toContain("chat:write");
      expect(to.searchParams.get("redirect_uri")).toBe("https://svc.example/slack/oauth_redirect");
      const state = to.searchParams.get("state") ?? "";
      expect(state).toMatch(/^[\w-]{43}$/u);
      const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      expect(start.headers.get("set-cookie")).toMatch(/HttpOnly/u);

      const token = "xoxb-9999-8888-secondworkspace";
      h.api.codes.set("code-ok", { access_token: token, token_type: "bot", scope: "commands,chat:write", bot_user_id: "U0BOT2", app_id: "A0APP", team: { id: TEAM2, name: "Second" }, enterprise: null, authed_user: { id: "U0INSTALL" } });
      const back = (q: string, withCookie = true) => fetch(`${h.base}/slack/oauth_redirect?${q}`, { headers: withCookie ? { cookie } : {} });

      expect((await back(`code=code-ok&state=${state}`, false)).status).toBe(400);
      expect((await back(`code=code-ok&state=${state}x`)).status).toBe(400);
      const done = await back(`code=code-ok&state=${state}`);
      expect(done.status).toBe(200);
      expect(await done.text()).toMatch(/svc is installed[\s\S]*Second/u);
      expect(h.api.sent("oauth.v2.access")).toEqual([expect.objectContaining({ client_id: "1111.2222", code: "code-ok", redirect_uri: "https://svc.example/slack/oauth_redirect" })]);
      // Used once: the same state does not work again.
      expect((await back(`code=code-ok&state=${state}`)).status).toBe(400);

      const rows = await h.db<Record<string, string>>(`SELECT * FROM slack_installations WHERE team_id = $1`, [TEAM2]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ bot_user_id: "U0BOT2", bot_id: "B0BOT", installed_by: "U0INSTALL" });
      expect(JSON.stringify(rows)).not.toContain("xoxb-");
      expect(JSON.stringify(rows)).not.toContain("secondworkspace");
      expect((await h.rt.app.installations.find(TEAM2))?.botToken).toBe(token);
      // The same channel id in another workspace is another chat: its own (free) plan, its own settings.
      expect(await h.command(ADMIN, "/svc-monitor", "", CHANNEL, TEAM2)).toMatch(/needs the pro plan/u);
      expect(await h.command(ADMIN, "/svc-status", "", CHANNEL)).toMatch(/Status/u);
    });

    it("answers a refused code with a clear page and stores nothing", async () => {
      const start = await fetch(`${h.base}/slack/install`, { redirect: "manual" });
      const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
      const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const res = await fetch(`${h.base}/slack/oauth_redirect?code=bad&state=${state}`, { headers: { cookie } });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/invalid_code/u);
      expect(await h.db(`SELECT team_id FROM slack_installations ORDER BY team_id`)).toHaveLength(2);
    });

    it("deletes the installation on tokens_revoked and app_uninstalled; that workspace then gets nothing", async () => {
      await h.event({ type: "tokens_revoked", tokens: { oauth: ["U0INSTALL"] } }, { team: TEAM2 });
      expect(await h.db(`SELECT team_id FROM slack_installations WHERE team_id = $1`, [TEAM2])).toHaveLength(1);
      await h.event({ type: "tokens_revoked", tokens: { bot: ["U0BOT2"] } }, { team: TEAM2 });
      expect(await h.db(`SELECT team_id FROM slack_installations WHERE team_id = $1`, [TEAM2])).toHaveLength(0);

      await h.event({ type: "app_uninstalled" });
      expect(await h.db(`SELECT team_id FROM slack_installations`)).toHaveLength(0);
      const before = h.api.calls.length;
      expect((await h.message(MEMBER, "paypa1.com")).status).toBe(200);
      h.clock.advance(1000);
      const errorsBefore = h.errors.length;
      const cmd = await h.post(commandBody(""), "application/x-www-form-urlencoded");
      expect(cmd.status).toBe(200);
      // A short ephemeral answer with the install address, not an empty 200 and an authorize error in the log.
      expect(await cmd.json()).toEqual({ response_type: "ephemeral", text: "svc is not installed in this workspace; install it at https://svc.example/slack/install" });
      expect(h.errors.length).toBe(errorsBefore);
      expect(await h.command(MEMBER, "/svc-check", "paypa1.com", CHANNEL, "T0NEVERINST")).toMatch(/^svc is not installed in this workspace; install it at /u);
      expect(h.errors.length).toBe(errorsBefore);
      expect(h.api.calls.length).toBe(before);
      expect(await policy()).toBe("notify");
    });
  });
});
