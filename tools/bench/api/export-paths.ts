// The CSV audit export's two paths side by side, in one process and one PostgreSQL database,
// without HTTP: rows formatted in JavaScript (`exportSummaries` through csv-stringify, the path
// PGlite keeps) and PostgreSQL's COPY (`exportCsv`, decision 0085). Each round exports the same
// rows once by each path, alternately, so load from other processes hits both alike; every output
// is checked to be byte-identical with the first one.
//   npx tsx tools/bench/api/export-paths.ts [rows, default 200000] [rounds, default 3]
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), a fresh
// svc_bench_* database, dropped at the end.
import { cpus, loadavg } from "node:os";
import { HmacAuditKeyring, openDataSource, TypeOrmCheckRepository } from "@svc/persistence";
import { csvOfRows } from "@svc/server";
import { anAuditRecord } from "@svc/testing";
import { postgresCpuSeconds } from "./procs.js";
import { createDatabase, dbUrl, dropDatabase, seedAuditRows } from "./seed.js";

const ROWS = Number(process.argv[2] ?? "200000");
const ROUNDS = Number(process.argv[3] ?? "3");

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(" ");
const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${cpus()[0]?.model.trim()} × ${cpus().length}; ${fmt(ROWS)} rows, ${ROUNDS} rounds; load average ${load()} at start`);
  const db = await createDatabase("export");
  const ds = await openDataSource({ url: dbUrl(db) });
  try {
    const repo = new TypeOrmCheckRepository(ds, new HmacAuditKeyring("the export benchmark's audit key, 32+ chars"));
    const template = "acc_export_tpl";
    await repo.saveMany(Array.from({ length: 200 }, (_, i) => anAuditRecord({ account_id: template, value: `shop-${i}.example.com` })));
    const account = "acc_export";
    const seedSecs = await seedAuditRows(dbUrl(db), [template], account, "key_export", ROWS);
    console.log(`${fmt(ROWS)} rows seeded in ${seedSecs.toFixed(1)} s`);

    const paths: Record<string, () => AsyncIterable<Uint8Array>> = {
      "formatted in JavaScript (csv-stringify)": () => csvOfRows(repo.exportSummaries(account, { batchSize: 2_000 })),
      "COPY (PostgreSQL writes the CSV)": () => repo.exportCsv(account) ?? (() => { throw new Error("no COPY path on this DataSource"); })(),
    };
    const totals = new Map<string, { wall: number; api: number; pg: number }>();
    let reference: Buffer | null = null;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, run] of Object.entries(paths)) {
        global.gc?.();
        const pg0 = postgresCpuSeconds();
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const parts: Buffer[] = [];
        let bytes = 0;
        for await (const piece of run()) {
          bytes += piece.length;
          if (round === 1) parts.push(Buffer.from(piece));
        }
        const wall = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        const pg1 = postgresCpuSeconds();
        let pgSecs = 0;
        for (const [pid, s] of pg1) pgSecs += s - (pg0.get(pid) ?? 0);
        const api = (cpu.user + cpu.system) / 1e6;
        if (round === 1) {
          const out = Buffer.concat(parts);
          if (reference === null) reference = out;
          else if (!out.equals(reference)) throw new Error(`${name}: output differs from the first path's`);
        }
        const t = totals.get(name) ?? { wall: 0, api: 0, pg: 0 };
        totals.set(name, { wall: t.wall + wall, api: t.api + api, pg: t.pg + pgSecs });
        console.log(`round ${round} · ${name.padEnd(40)} ${fmt(ROWS / wall).padStart(9)} rows/s  ${(bytes / 2 ** 20).toFixed(1)} MiB in ${wall.toFixed(2)} s  CPU: this process ${(api * 1e6 / ROWS).toFixed(2)} µs/row, postgres ${(pgSecs * 1e6 / ROWS).toFixed(2)} µs/row  (load ${load()})`);
      }
    }
    console.log(`outputs of the two paths: byte-identical (${fmt(reference?.length ?? 0)} bytes)`);
    const [a, b] = [...totals.values()] as [{ wall: number; api: number; pg: number }, { wall: number; api: number; pg: number }];
    console.log(`COPY ÷ formatted over ${ROUNDS} rounds: ${(a.wall / b.wall).toFixed(2)}× rows/s, ${(b.api / a.api).toFixed(2)}× CPU of this process, ${(b.pg / a.pg).toFixed(2)}× postgres CPU; load average ${load()} at the end`);
  } finally {
    await ds.destroy();
    await dropDatabase(db);
  }
}

await main();
