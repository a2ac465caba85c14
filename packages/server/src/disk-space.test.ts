import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskSpaceGuard } from "@svc/persistence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { startTestApi, type TestApi } from "./test-support.js";

const MB = 1024 * 1024;

describe("a nearly full data directory (embedded mode)", () => {
  let api: TestApi;
  let key: string;
  let freeMb = 500;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    api = await startTestApi("pglite");
    key = (await api.account("pro")).key;
    // The same services, with the data directory's file system under our control.
    app = createApp({ ...api.runtime.services, diskSpace: diskSpaceGuard("/data", 64 * MB, { everyMs: 0, statfs: () => ({ bavail: freeMb * 256, bsize: 4096 }) }) });
  });
  afterAll(() => api.close());
  const screen = (value: string) => app.request("/v1/screen", { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ entity_value: value }) });
  const history = async () => ((await (await app.request("/v1/history", { headers: { "x-api-key": key } })).json()) as { items: unknown[] }).items.length;

  it("refuses writes with 507 storage.full (problem+json, retryable), keeps answering reads, and stores nothing meanwhile", async () => {
    expect((await screen("northgate-plumbing.com")).status).toBe(200);
    freeMb = 40;
    const refused = await screen("riverside-choir.net");
    expect(refused.status).toBe(507);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.headers.get("retry-after")).toBe("60");
    const body = (await refused.json()) as { code: string; detail: string; retryable: boolean };
    expect(body).toMatchObject({ code: "storage.full", retryable: true });
    expect(body.detail).toContain("40 MB free");
    expect(await history()).toBe(1);
    freeMb = 200;
    expect((await screen("riverside-choir.net")).status).toBe(200);
    expect(await history()).toBe(2);
  });

  it("is wired by the composition root on a real data directory (SVC_DATA_DIR_MIN_FREE_MB)", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-disk-"));
    try {
      // No file system here has a million MB free: every write is refused, from the real statfs.
      const full = await startTestApi("pglite", { SVC_DATA_DIR: join(dir, "a"), SVC_DATA_DIR_MIN_FREE_MB: "1000000" });
      try {
        const k = (await full.account("pro")).key;
        const res = await full.app.request("/v1/screen", { method: "POST", headers: { "content-type": "application/json", "x-api-key": k }, body: JSON.stringify({ entity_value: "northgate-plumbing.com" }) });
        expect(res.status).toBe(507);
        expect((await full.app.request("/healthz")).status).toBe(200);
      } finally {
        await full.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
