import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { describeStartupFailure } from "./startup.js";

const TOKEN = "123456789:AAEhBOweik6ad6PsWZRcXUgPaGFhqOClv5g";
const settings = { TELEGRAM_BOT_TOKEN: TOKEN };

function refused(code: number, description: string): GrammyError {
  return new GrammyError(`Call to 'getMe' failed! (${code}: ${description})`, { ok: false, error_code: code, description }, "getMe", {});
}

describe("a Telegram bot that cannot start says why in one line, without its token", () => {
  it("no route to the Bot API: the network's reason, the URL (with the token) left out", () => {
    const cause = new Error(`request to https://api.telegram.org/bot${TOKEN}/getMe failed, reason: getaddrinfo ENOTFOUND api.telegram.org`);
    const line = describeStartupFailure("getMe", new HttpError("Network request for 'getMe' failed!", cause), settings);
    expect(line).toBe("svc Telegram bot: cannot reach the Bot API at https://api.telegram.org (getMe: getaddrinfo ENOTFOUND api.telegram.org). Check this machine's network and proxy, or TELEGRAM_API_ROOT.");
  });

  it("a token Telegram does not know (401 or 404) names TELEGRAM_BOT_TOKEN", () => {
    expect(describeStartupFailure("getMe", refused(401, "Unauthorized"), settings)).toMatch(/rejected the token \(401 Unauthorized on getMe\)\. Check TELEGRAM_BOT_TOKEN/u);
    expect(describeStartupFailure("getMe", refused(404, "Not Found"), settings)).toMatch(/rejected the token \(404 Not Found on getMe\)/u);
  });

  it("409 while polling: another process holds the token", () => {
    expect(describeStartupFailure("getUpdates", refused(409, "Conflict: terminated by other getUpdates request"), settings)).toMatch(/another process uses this token/u);
  });

  it("the token never appears, whatever the error quotes", () => {
    const line = describeStartupFailure("deleteWebhook", new Error(`weird ${TOKEN} failure`), { ...settings, TELEGRAM_API_ROOT: "http://127.0.0.1:1" });
    expect(line).not.toContain(TOKEN);
    expect(line).toContain("http://127.0.0.1:1");
  });

  it("the bot process with an unreachable Bot API exits 1 with one line, no stack trace, no token", async () => {
    // A port nobody listens on: taken, then released.
    const port = await new Promise<number>((done) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => done(p));
      });
    });
    const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === "PATH" || k === "HOME"));
    const env = { ...base, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`, SVC_DATA_DIR: "memory://", LOG_LEVEL: "silent" };
    const r = spawnSync(process.execPath, [main], { env, encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^svc Telegram bot: cannot reach the Bot API at http://127\\.0\\.0\\.1:${port} \\(getMe: .*ECONNREFUSED`, "u"));
    expect(r.stderr + r.stdout).not.toContain(TOKEN);
  }, 70_000);

  it("the bot process with a PostgreSQL that does not answer exits 1 with one line naming DATABASE_URL, no password", () => {
    const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === "PATH" || k === "HOME"));
    const env = { ...base, TELEGRAM_BOT_TOKEN: TOKEN, DATABASE_URL: "postgres://svc:hunter2secret@127.0.0.1:1/svc", LOG_LEVEL: "silent" };
    const r = spawnSync(process.execPath, [main], { env, encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^svc Telegram bot: cannot open the database at 127\.0\.0\.1:1\/svc \(DATABASE_URL\): .*ECONNREFUSED/u)]);
    expect(r.stderr).not.toContain("hunter2secret");
  }, 70_000);
});
