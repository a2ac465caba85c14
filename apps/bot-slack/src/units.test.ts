import { heading, list, note, text, code } from "@svc/bot-kernel";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { parseBody } from "./http.js";
import { scanText } from "./message-text.js";
import { renderBlocks } from "./render.js";
import { TokenCipher } from "./token-cipher.js";

describe("TokenCipher", () => {
  const c = new TokenCipher("k".repeat(40));
  it("opens what it sealed, for the same workspace only", () => {
    const sealed = c.seal("xoxb-123-secret", "T1");
    expect(sealed).not.toContain("xoxb");
    expect(c.open(sealed, "T1")).toBe("xoxb-123-secret");
    expect(c.open(sealed, "T2")).toBeNull();
    expect(new TokenCipher("z".repeat(40)).open(sealed, "T1")).toBeNull();
    const [v, n, body, tag] = sealed.split(".");
    // The body's second-to-last character (all six of its bits are data) replaced by another one.
    const b = body as string;
    const flipped = `${v}.${n}.${b.slice(0, -2)}${b.at(-2) === "A" ? "B" : "A"}${b.slice(-1)}.${tag}`;
    expect(flipped).not.toBe(sealed);
    expect(c.open(flipped, "T1")).toBeNull();
    expect(c.open("garbage", "T1")).toBeNull();
    expect(c.seal("xoxb-123-secret", "T1")).not.toBe(sealed);
  });
  it("refuses a short key", () => expect(() => new TokenCipher("short")).toThrow(/32/u));
});

describe("renderBlocks", () => {
  it("escapes mrkdwn, keeps headers plain, and bounds sizes", () => {
    const r = renderBlocks({ blocks: [heading("⚠️ <b>Risk</b>"), text("a <@U1> & <!channel>"), list(["x > y"]), code("`rm`"), note("small")] });
    expect(r.blocks).toEqual([
      { type: "header", text: { type: "plain_text", text: "⚠️ <b>Risk</b>", emoji: true } },
      { type: "section", text: { type: "mrkdwn", text: "a &lt;@U1&gt; &amp; &lt;!channel&gt;" } },
      { type: "section", text: { type: "mrkdwn", text: "• x &gt; y" } },
      { type: "section", text: { type: "mrkdwn", text: "`'rm'`" } },
      { type: "context", elements: [{ type: "mrkdwn", text: "small" }] },
    ]);
    expect(r.text).toContain("a <@U1> & <!channel>");
    const long = renderBlocks({ blocks: Array.from({ length: 80 }, () => text("y".repeat(5000))) });
    expect(long.blocks).toHaveLength(50);
    expect(JSON.stringify(long.blocks[0]).length).toBeLessThan(3100);
  });
});

describe("scanText", () => {
  it("turns Slack links into Markdown links so a lying label is visible", () => {
    expect(scanText("go <https://evil.top/x|paypal.com> now")).toBe("go  [paypal.com](https://evil.top/x)  now");
    expect(scanText("<https://docs.python.org/3/>")).toBe(" https://docs.python.org/3/ ");
    expect(scanText("mail <mailto:a@b.co|a@b.co> or <tel:+14155550100|call>")).toBe("mail  a@b.co  or  +14155550100 ");
    expect(scanText("hi <@U123> in <#C1|general> &lt;x&gt; &amp;")).toBe("hi  in #general <x> &");
    expect(scanText("unclosed < bracket")).toBe("unclosed < bracket");
  });
});

describe("parseBody", () => {
  it("reads commands, interactivity and events; refuses what it cannot read", () => {
    expect(parseBody("command=%2Fsvc-check&text=a.com", "application/x-www-form-urlencoded")).toEqual({ command: "/svc-check", text: "a.com" });
    expect(parseBody(`payload=${encodeURIComponent('{"type":"block_actions"}')}`, "application/x-www-form-urlencoded")).toEqual({ type: "block_actions" });
    expect(() => parseBody("{", "application/json")).toThrow();
    expect(() => parseBody("null", "application/json")).toThrow(/JSON object/u);
    expect(() => parseBody("x", "text/plain")).toThrow(/content type/u);
  });
});

describe("parseConfig", () => {
  const ok = { SLACK_SIGNING_SECRET: "a".repeat(32), SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "b".repeat(32), SLACK_TOKEN_KEY: "k".repeat(32) };
  it("applies defaults and names every bad variable", () => {
    expect(parseConfig(ok)).toMatchObject({ SLACK_API_URL: "https://slack.com/api/", PORT: 3000 });
    expect(parseConfig({ ...ok, SLACK_API_URL: "http://127.0.0.1:9/api" }).SLACK_API_URL).toBe("http://127.0.0.1:9/api/");
    expect(() => parseConfig({ ...ok, SLACK_SIGNING_SECRET: "nope", SLACK_TOKEN_KEY: "short" })).toThrow(/SLACK_SIGNING_SECRET[\s\S]*SLACK_TOKEN_KEY/u);
    expect(() => parseConfig({})).toThrow(/SLACK_CLIENT_ID/u);
  });
});
