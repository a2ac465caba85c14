// `svc batch --url` on a plan with a small per-minute limit: the remote backend sizes its chunks
// to the plan (GET /v1/usage) and waits out full windows, so the whole file goes through. The
// server is the real app in-process on PGlite, with a clock the client's waiting moves on.
import { randomBytes } from "node:crypto";
import { apiKeyHint, formatApiKey, hashApiKey } from "@svc/server-ports";
import { fixedClock } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@svc/runtime";
import { buildRuntime, createApp, type Runtime } from "@svc/server";
import { remoteBackend } from "../src/backend.js";
import { renderingScreener, runBatch } from "../src/batch/run.js";
import type { InputItem } from "../src/batch/readers.js";

describe("svc batch --url on a small plan", () => {
  const clock = fixedClock("2026-11-20T10:00:00.000Z");
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    const config = loadConfig({ SVC_DATA_DIR: "memory://", LOG_LEVEL: "silent", SVC_PLANS: JSON.stringify({ tiny: { per_minute: 4, per_month: 1000 }, spent: { per_minute: 4, per_month: 6 } }) });
    runtime = await buildRuntime(config, { clock });
    app = createApp(runtime.services);
  }, 120_000);
  afterAll(async () => runtime?.close());

  const keyOn = async (plan: string): Promise<string> => {
    const s = runtime.services;
    const account = await s.accounts.create({ name: `cli ${plan}`, plan }, clock.now());
    const key = formatApiKey(randomBytes(32));
    await s.keys.create({ account_id: account.id, key_hash: hashApiKey(key), prefix: apiKeyHint(key) }, clock.now());
    return key;
  };
  const transport = {
    fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => app.request(input instanceof URL ? input.href : (input as string | Request), init)) as typeof fetch,
    // Waiting is the server's clock moving on.
    sleep: async (ms: number) => clock.advance(ms),
  };

  it("sizes chunks to the plan and waits out full windows; every line gets its verdict", { timeout: 60_000 }, async () => {
    const key = await keyOn("tiny");
    const backend = await remoteBackend({ url: "http://svc.test", key }, transport);
    expect(backend.chunkSize).toBe(4);
    const lines = Array.from({ length: 11 }, (_, i) => `shop-${i}.example-store.com`);
    async function* items(): AsyncGenerator<InputItem> {
      for (const [i, value] of lines.entries()) yield { kind: "entity", line: i + 1, value };
    }
    const out: string[] = [];
    const logs: string[] = [];
    const summary = await runBatch({
      items: items(),
      screener: renderingScreener(backend, "jsonl", () => null),
      writer: { format: "jsonl", write: (t: string) => void out.push(t), end: async () => {} },
      progress: { tick: () => {}, log: (t: string) => void logs.push(t), done: () => {} },
      inflight: 2,
    });
    expect(logs).toEqual([]);
    expect(summary).toMatchObject({ lines: 11, screened: 11, bad: 0 });
    expect(out.map((t) => (JSON.parse(t) as { entity: { value: string } }).entity.value)).toEqual(lines);
    // Three chunks of ≤ 4 on a 4-a-minute plan took at least two more windows.
    expect(clock.now().getTime() - Date.parse("2026-11-20T10:00:00.000Z")).toBeGreaterThanOrEqual(120_000);
  });

  it("stops at once when the month is used up, saying so, instead of retrying for ten minutes", { timeout: 60_000 }, async () => {
    const backend = await remoteBackend({ url: "http://svc.test", key: await keyOn("spent") }, transport);
    async function* items(): AsyncGenerator<InputItem> {
      for (let i = 0; i < 11; i++) yield { kind: "entity", line: i + 1, value: `shop-${i}.example-store.com` };
    }
    const start = clock.now().getTime();
    const err = await runBatch({
      items: items(),
      screener: renderingScreener(backend, "jsonl", () => null),
      writer: { format: "jsonl", write: () => {}, end: async () => {} },
      progress: { tick: () => {}, log: () => {}, done: () => {} },
      inflight: 1,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: expect.stringMatching(/^The key's monthly quota is used up: The spent plan includes 6 checks a month and 2 are left; this request costs 4\./) });
    // One window's wait for the second chunk, none for the month.
    expect(clock.now().getTime() - start).toBeLessThanOrEqual(61_000);
  });

  it("uses chunks of 100 where the plan has no per-minute limit", async () => {
    const backend = await remoteBackend({ url: "http://svc.test", key: await keyOn("operator") }, transport);
    expect(backend.chunkSize).toBe(100);
  });
});
