import { parseCommand } from "@svc/bot-kernel";
import { describe, expect, it } from "vitest";
import { SLASH_COMMANDS, toCommandText } from "./slash-commands.js";

const parse = (t: string | null) => (t === null ? null : parseCommand(t, { dialect: "discord" }));

describe("slash commands", () => {
  it("registers every Discord command of the spec, admin ones hidden from members", () => {
    const byName = new Map(SLASH_COMMANDS.map((c) => [c.name, c]));
    for (const n of ["checkwithsvc", "monitor", "unmonitor", "policy", "report", "connect", "audit", "learn"]) expect(byName.has(n)).toBe(true);
    for (const n of ["monitor", "unmonitor", "policy", "connect", "audit", "learn"]) expect(byName.get(n)?.default_member_permissions).toBe("32");
    expect(byName.get("checkwithsvc")?.default_member_permissions).toBeUndefined();
    expect(byName.get("report")?.default_member_permissions).toBeUndefined();
    for (const c of SLASH_COMMANDS) expect(c.name).toMatch(/^[a-z_-]{1,32}$/u);
  });

  it("turns options into the kernel's grammar", () => {
    expect(parse(toCommandText({ name: "checkwithsvc", subcommand: null, options: { entity: " paypa1.com " } }))).toEqual({ ok: true, command: { name: "check", entity: "paypa1.com" } });
    expect(parse(toCommandText({ name: "policy", subcommand: "ban", options: {} }))).toEqual({ ok: true, command: { name: "policy", policy: "ban" } });
    expect(parse(toCommandText({ name: "report", subcommand: null, options: { entity: "paypa1.com", reason: "false_positive" } }))).toMatchObject({ ok: true, command: { name: "report", feedback: "false_positive" } });
    expect(parse(toCommandText({ name: "report", subcommand: null, options: { entity: "paypa1.com" } }))).toMatchObject({ ok: true, command: { name: "report", category: "scam" } });
    expect(parse(toCommandText({ name: "learn", subcommand: null, options: { days: 3 } }))).toEqual({ ok: true, command: { name: "learn", action: "start", days: 3 } });
    expect(parse(toCommandText({ name: "learn", subcommand: null, options: { action: "stop" } }))).toEqual({ ok: true, command: { name: "learn", action: "stop" } });
    expect(parse(toCommandText({ name: "verify", subcommand: null, options: { user: "1000000000000000002" } }))).toEqual({ ok: true, command: { name: "verify", user: { kind: "id", id: "1000000000000000002" } } });
    expect(parse(toCommandText({ name: "setlog", subcommand: null, options: {} }))).toEqual({ ok: true, command: { name: "setlog", channel: null } });
    expect(toCommandText({ name: "someone-elses", subcommand: null, options: {} })).toBeNull();
  });

  it("a connect key with spaces is one bad argument, not a command injection", () => {
    expect(parse(toCommandText({ name: "connect", subcommand: null, options: { api_key: "a b" } }))).toMatchObject({ ok: false, name: "connect" });
  });
});
