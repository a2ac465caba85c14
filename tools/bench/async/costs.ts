/**
 * PostgreSQL CPU per operation of an asynchronous check, measured one operation type at a time
 * (2,000 each, 20 at once) on a throw-away database: where the database's share of a job goes.
 *
 *   npx tsx tools/bench/async/costs.ts
 */
import { randomIds, type Entity } from "@svc/core";
import { createCheckQueues, openPgBossJobQueue, SqlJobQueue, TypeOrmAsyncJobStore } from "@svc/jobs";
import { openDataSource, TypeOrmGraphRepository, TypeOrmIntelStore, TypeOrmReportRepository, TypeOrmUsageCounter } from "@svc/persistence";
import { freshDatabase, postgresCpuSeconds } from "./support.js";

const N = 2_000;

async function main(): Promise<void> {
  const db = await freshDatabase();
  const ds = await openDataSource({ url: db.url });
  const ids = randomIds();
  const hosts = Array.from({ length: N }, (_, i) => `shop${i}.example${i % 7}.com`);
  const measure = async (name: string, run: (i: number) => Promise<unknown>) => {
    const c0 = postgresCpuSeconds();
    const t0 = performance.now();
    for (let i = 0; i < N; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => run(i + k)));
    console.log(`${name.padEnd(44)} ${((postgresCpuSeconds() - c0) * 1000 / N).toFixed(2)} ms PostgreSQL CPU   ${Math.round(N / ((performance.now() - t0) / 1000))}/s`);
  };
  const entity = (i: number) => ({ id: `domain:${hosts[i]}`, type: "domain", value: hosts[i], input: hosts[i], attributes: { registered_domain: hosts[i] } }) as unknown as Entity;
  try {
    console.log(`PostgreSQL at ${new URL(db.url).host}; ${N} of each`);
    await measure("SELECT 1 (a round trip)", () => ds.query("SELECT 1"));
    console.log("-- the API, per request");
    const usage = new TypeOrmUsageCounter(ds);
    await measure("rate limit: one usage counter hit (×2)", (i) => usage.hit(`key:k${i % 15}`, "minute", new Date("2026-11-22T10:00:00Z"), 1, 1e9));
    const boss = await openPgBossJobQueue({ connectionString: db.url });
    await createCheckQueues(boss);
    const submit = (store: TypeOrmAsyncJobStore) => (i: number) => store.submit({ id: ids.next("job"), account_id: `acc_${i % 4}`, key_id: null, request: { entity_value: hosts[i] as string }, webhook_url: "http://127.0.0.1:1/x", metadata: null, created_at: new Date() });
    await measure("submit: job row + pg-boss job, one statement", submit(new TypeOrmAsyncJobStore(ds, boss)));
    await measure("  (pg-boss send alone, unprepared)", (i) => boss.boss.send("screen-checks", { job_id: `x${i}` }));
    const leased = new SqlJobQueue(ds);
    await createCheckQueues(leased);
    await measure("  (same submit on the leased-table queue)", submit(new TypeOrmAsyncJobStore(ds, leased)));
    console.log("-- screening's evidence, per check (as for POST /v1/screen)");
    const intel = new TypeOrmIntelStore(ds);
    await measure("intel lookup", (i) => intel.lookup(entity(i)));
    await measure("intel data version (cached 5 s by the worker)", () => intel.version());
    const reports = new TypeOrmReportRepository(ds);
    await measure("community reports", (i) => reports.forEntity(`domain:${hosts[i]}`, new Date()));
    const graph = new TypeOrmGraphRepository(ds);
    await measure("graph proximity (recursive walk)", (i) => graph.badNeighbours(`domain:${hosts[i]}`, 3));
    await boss.stop();
  } finally {
    await ds.destroy();
    await db.drop();
  }
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
