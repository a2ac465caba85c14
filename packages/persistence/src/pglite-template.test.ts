// A new embedded database starts from the initialised-cluster image: made once, kept in the cache
// directory (ours only), shared by later databases; a broken or foreign image is never trusted.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import type { DataSource } from "typeorm";
import { openDataSource } from "./data-source.js";
import { MIGRATIONS } from "./migrations/index.js";
import { freshClusterImage, templateFile } from "./pglite-template.js";

const root = mkdtempSync(join(tmpdir(), "svc-template-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** initdb draws a new system identifier; a copy of an image keeps the image's. */
async function systemIdentifier(ds: DataSource): Promise<string> {
  const rows = (await ds.query("select system_identifier::text as id from pg_control_system()")) as { id: string }[];
  return rows[0]?.id ?? "";
}

describe("the initialised-cluster image", () => {
  it("is made once, stored for this user only, and new databases (directory or memory) start from it migrated", async () => {
    const cache = join(root, "cache");
    await freshClusterImage(cache);
    const file = templateFile(cache);
    const st = statSync(file);
    expect(st.mode & 0o777).toBe(0o600);
    expect(statSync(cache).mode & 0o777).toBe(0o700);

    const dir = join(root, "data");
    const onDisk = await openDataSource({ dataDir: dir, templateCacheDir: cache });
    const inMemory = await openDataSource({ dataDir: "memory://", templateCacheDir: cache });
    try {
      expect(await systemIdentifier(onDisk)).toBe(await systemIdentifier(inMemory));
      expect(await onDisk.query("select count(*)::int as n from migrations")).toEqual([{ n: MIGRATIONS.length }]);
      await onDisk.query("create table kept (x int)");
      await onDisk.query("insert into kept values (42)");
    } finally {
      await onDisk.destroy();
      await inMemory.destroy();
    }
    expect(statSync(file).mtimeMs).toBe(st.mtimeMs); // read, not made again

    // Reopened: the existing cluster is used as it is, never overwritten by the image.
    const again = await openDataSource({ dataDir: dir, templateCacheDir: cache });
    try {
      expect(await again.query("select x from kept")).toEqual([{ x: 42 }]);
    } finally {
      await again.destroy();
    }
  }, 120_000); // initdb once, in WebAssembly: seconds of CPU, more on a loaded machine

  it("a damaged image is discarded and the database made by initdb; one others can write is never read", async () => {
    const good = readFileSync(templateFile(join(root, "cache"))); // made by the test above
    const cache = join(root, "damaged");
    const file = templateFile(cache);
    mkdirSync(cache, { recursive: true });

    writeFileSync(file, gzipSync(Buffer.from("not a PostgreSQL data directory")), { mode: 0o600 });
    const ds = await openDataSource({ dataDir: join(root, "from-damaged"), templateCacheDir: cache });
    try {
      expect(await ds.query("select count(*)::int as n from migrations")).toEqual([{ n: MIGRATIONS.length }]);
    } finally {
      await ds.destroy();
    }
    expect(existsSync(file)).toBe(false);

    // The same good bytes, but group- and world-writable: ignored, and replaced by a fresh image.
    writeFileSync(file, good);
    chmodSync(file, 0o666);
    const fresh = Buffer.from(await (await freshClusterImage(cache)).arrayBuffer());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).equals(fresh)).toBe(true);
  }, 120_000); // initdb twice
});
