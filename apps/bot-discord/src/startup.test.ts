import { InMemoryScreening, ManualClock } from "@svc/bot-kernel";
import { openDataSource } from "@svc/persistence";
import type { DataSource } from "typeorm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { buildContainer, type BotRuntime } from "./container.js";
import { logInAndRegister } from "./startup.js";
import { BOT, TOKEN } from "./testing/discord-world.js";
import { FakeDiscord } from "./testing/fake-discord.js";

/** A token Discord does not know (well formed, so configuration accepts it). */
const WRONG = `${Buffer.from(BOT.id).toString("base64url")}.Gwrong.${"y".repeat(27)}`;

/** The one line main.ts prints before exiting 1: no stack frames, no request body. */
function expectOneCleanLine(line: string | null): asserts line is string {
  expect(line).not.toBeNull();
  expect(line).not.toContain("\n");
  expect(line).not.toMatch(/\bat \S+ \(|requestBody|"name":|DiscordAPIError/u);
}

describe("Discord start-up with a token Discord rejects", () => {
  let fake: FakeDiscord;
  let ds: DataSource;
  let rt: BotRuntime | null = null;

  beforeAll(async () => {
    fake = await FakeDiscord.start(BOT);
    fake.token = TOKEN;
    ds = await openDataSource({ dataDir: "memory://" });
  }, 30_000);
  afterEach(async () => {
    await rt?.close();
    rt = null;
    fake.refusals.length = 0;
  });
  afterAll(async () => {
    await ds?.destroy();
    await fake?.close();
  });

  const runtime = async (token: string): Promise<BotRuntime> => {
    const config = parseConfig({ DISCORD_TOKEN: token, DISCORD_API_ROOT: fake.apiRoot, SVC_DATA_DIR: "memory://" });
    rt = await buildContainer(config, { screening: new InMemoryScreening(), clock: new ManualClock("2026-03-02T09:00:00.000Z"), dataSource: ds });
    return rt;
  };

  it("a 401 at login answers one line naming DISCORD_TOKEN", async () => {
    const { app } = await runtime(WRONG);
    const line = await logInAndRegister(app);
    expectOneCleanLine(line);
    expect(line).toContain("Discord rejected the token (401 Unauthorized at login)");
    expect(line).toContain("DISCORD_TOKEN");
    expect(fake.calls.some((c) => c.path === "/gateway/bot")).toBe(true);
  });

  it("a 401 while registering slash commands answers one line too, without the command list", async () => {
    fake.refusals.push({ method: "PUT", path: /\/commands$/u, status: 401, code: 0, message: "401: Unauthorized" });
    const { app } = await runtime(TOKEN);
    const line = await logInAndRegister(app, "1200000000000000001");
    expectOneCleanLine(line);
    expect(line).toContain("401 Unauthorized while registering slash commands");
    expect(line).not.toContain("scan"); // no command descriptions leak into the line
  });

  it("a good token logs in and registers", async () => {
    const { app } = await runtime(TOKEN);
    expect(await logInAndRegister(app)).toBeNull();
    expect(fake.calls.some((c) => c.method === "PUT" && c.path.endsWith("/commands"))).toBe(true);
  });
});
