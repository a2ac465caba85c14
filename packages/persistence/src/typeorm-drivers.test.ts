import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const dataSource = fileURLToPath(new URL("./data-source.ts", import.meta.url));

// In a process of its own: TypeORM is loaded once per process, and the test runner's may have it already.
const PROBE = `
const { createDataSource } = await import(${JSON.stringify(dataSource)});
const { driversLeftOut } = await import(${JSON.stringify(fileURLToPath(new URL("./typeorm-drivers.ts", import.meta.url)))});
const { DataSource } = await import("typeorm");
const { createRequire } = await import("node:module");
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes("/typeorm/driver/"));
let refusal = "";
try { new DataSource({ type: "mysql" }); } catch (e) { refusal = e.message; }
const embedded = createDataSource({ dataDir: "memory://", templateCacheDir: null });
await embedded.initialize();
const [{ answer }] = await embedded.query("select 40 + 2 as answer");
await embedded.destroy();
console.log(JSON.stringify({ left: driversLeftOut.length, loaded, refusal, answer }));
`;

describe("TypeORM's drivers of other databases (decision 0105)", () => {
  it("are not read: the factory gets a class that refuses, and PostgreSQL (PGlite) still works", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", PROBE], { timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split("\n").at(-1) as string) as { left: number; loaded: string[]; refusal: string; answer: number };
    expect(out.left).toBe(15);
    expect(out.answer).toBe(42);
    expect(out.refusal).toBe("svc opens PostgreSQL only; TypeORM's mysql driver is not loaded");
    // The other databases' query runners were never read; PostgreSQL's were.
    expect(out.loaded.some((f) => f.endsWith("/postgres/PostgresQueryRunner.js"))).toBe(true);
    expect(out.loaded.filter((f) => /QueryRunner\.js$/.test(f) && !/\/(?:postgres|aurora-postgres)\//.test(f))).toEqual([]);
  }, 90_000);
});
