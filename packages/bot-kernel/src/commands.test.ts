import { describe, expect, it } from "vitest";
import { parseCommand, type Dialect, type ParseResult } from "./commands.js";

const p = (text: string, dialect: Dialect = "telegram", botUsername = "svc_bot"): ParseResult | null => parseCommand(text, { dialect, botUsername });

describe("parseCommand across dialects", () => {
  it.each<[Dialect, string, unknown]>([
    ["telegram", "/check paypa1.com", { name: "check", entity: "paypa1.com" }],
    ["telegram", "/check@svc_bot paypa1.com", { name: "check", entity: "paypa1.com" }],
    ["telegram", "/CHECK@SVC_BOT   paypa1.com  ", { name: "check", entity: "paypa1.com" }],
    ["telegram", "/check +1 415 555 0100", { name: "check", entity: "+1 415 555 0100" }],
    ["discord", "/checkwithsvc paypa1.com", { name: "check", entity: "paypa1.com" }],
    ["slack", "/svc-check paypa1.com", { name: "check", entity: "paypa1.com" }],
    ["slack", "/svc-monitor", { name: "monitor" }],
    ["whatsapp", "!svc status", { name: "status" }],
    ["whatsapp", "!svc policy notify", { name: "policy", policy: "notify" }],
    ["whatsapp", "!svc admin add +14155550100", { name: "admin_add", phone: "+14155550100" }],
    ["whatsapp", "!svc", { name: "start" }],
    ["telegram", "/help", { name: "start" }],
    ["telegram", "/paysupport", { name: "support", topic: "payments", text: "" }],
    ["telegram", "/support my message was deleted", { name: "support", topic: "general", text: "my message was deleted" }],
    ["telegram", "/report paypa1.com", { name: "report", entity: "paypa1.com", category: "scam" }],
    ["telegram", "/report paypa1.com phishing", { name: "report", entity: "paypa1.com", category: "phishing" }],
    ["telegram", "/report paypa1.com false_positive", { name: "report", entity: "paypa1.com", category: "other", feedback: "false_positive" }],
    ["telegram", "/policy BAN", { name: "policy", policy: "ban" }],
    ["telegram", "/alerts me", { name: "alerts", destination: { kind: "me" } }],
    ["telegram", "/alerts -1001234567890", { name: "alerts", destination: { kind: "chat", chatId: "-1001234567890" } }],
    ["telegram", "/antiraid 10 2", { name: "antiraid", action: "set", joins: 10, minutes: 2 }],
    ["telegram", "/antiraid 10 2 60", { name: "antiraid", action: "set", joins: 10, minutes: 2, lockdownMinutes: 60 }],
    ["telegram", "/antiraid off", { name: "antiraid", action: "off" }],
    ["telegram", "/welcome set Hi {name}, read the rules", { name: "welcome", mode: "set", text: "Hi {name}, read the rules" }],
    ["telegram", "/welcome off", { name: "welcome", mode: "off" }],
    ["telegram", "/learn", { name: "learn", action: "start", days: 7 }],
    ["telegram", "/learn 3", { name: "learn", action: "start", days: 3 }],
    ["telegram", "/learn status", { name: "learn", action: "status" }],
    ["telegram", "/verify @Alice", { name: "verify", user: { kind: "username", username: "alice" } }],
    ["telegram", "/verify 12345", { name: "verify", user: { kind: "id", id: "12345" } }],
    ["discord", "/verify <@!12345>", { name: "verify", user: { kind: "id", id: "12345" } }],
    ["telegram", "/banuser", { name: "banuser", user: null }],
    ["telegram", "/blocklist add *.TOP", { name: "blocklist", action: "add", pattern: "*.top" }],
    ["telegram", "/blocklist", { name: "blocklist", action: "list" }],
    // Regex metacharacters are ordinary characters in a glob.
    ["telegram", "/blocklist add ev(il|x).com", { name: "blocklist", action: "add", pattern: "ev(il|x).com" }],
    ["telegram", "/allowlist domain example.org", { name: "allowlist", action: "add", kind: "domain", value: "example.org" }],
    ["telegram", "/allowlist remove user @bob", { name: "allowlist", action: "remove", kind: "user", value: "@bob" }],
    ["telegram", "/setlog -1009876543210", { name: "setlog", channel: "-1009876543210" }],
    ["telegram", "/setlog off", { name: "setlog", channel: null }],
    ["telegram", "/subscribe pro", { name: "subscribe", plan: "pro" }],
    ["telegram", "/connect svc_live_abc", { name: "connect", apiKey: "svc_live_abc" }],
  ])("%s %j", (dialect, text, expected) => {
    expect(p(text, dialect)).toEqual({ ok: true, command: expected });
  });

  it.each<[string, string, RegExp]>([
    ["/check", "check", /Tell me what to check[\s\S]*Usage: \/check <entity>[\s\S]*Example: \/check paypa1.com/u],
    ["/policy maybe", "policy", /"maybe" is not a policy[\s\S]*notify\|delete\|ban/u],
    ["/antiraid 1 5", "antiraid", /Joins must be between 2/u],
    ["/antiraid ten five", "antiraid", /number of joins/u],
    ["/learn 90", "learn", /1 to 30/u],
    ["/alerts somewhere", "alerts", /not here, me or a chat id/u],
    ["/blocklist add *", "blocklist", /at least 3 ordinary characters/u],
    ["/report paypa1.com phishy", "report", /not a category/u],
    ["/verify not a user", "verify", /not a username or user id/u],
    ["/connect", "connect", /exactly one API key/u],
    ["/support", "support", /Describe the problem/u],
    ["/welcome maybe", "welcome", /on, off, or set/u],
  ])("usage reply for %j", (text, name, re) => {
    const r = p(text);
    expect(r).toMatchObject({ ok: false, name });
    expect((r as { usage: string }).usage).toMatch(re);
  });

  it("spells usage in the caller's dialect", () => {
    expect((p("/checkwithsvc", "discord") as { usage: string }).usage).toContain("Usage: /checkwithsvc <entity>");
    expect((p("/svc-check", "slack") as { usage: string }).usage).toContain("Usage: /svc-check <entity>");
    expect((p("!svc check", "whatsapp") as { usage: string }).usage).toContain("Usage: !svc check <entity>");
  });

  it.each(["hello there", "check paypa1.com", "/ not a command", "!svcstatus", "http://x.com/path", ""])("%j is not a command", (text) => {
    expect(p(text)).toBeNull();
  });

  it("ignores commands addressed to another bot and unknown commands", () => {
    expect(p("/check@other_bot paypa1.com")).toEqual({ ok: false, name: null, addressedToUs: false, raw: "check" });
    expect(p("/frobnicate")).toEqual({ ok: false, name: null, addressedToUs: true, raw: "frobnicate" });
  });
});
