/**
 * Reliability scenarios, each one command that stops by itself and touches only 127.0.0.1:
 *
 *   npm run soak -- restart    [--down S]                 PostgreSQL (private instance) restart under load
 *   npm run soak -- blackhole  [--down S]                 the database network stops answering (TCP proxy)
 *   npm run soak -- worker-kill [--kills N]               SIGKILL the async worker N times under load
 *   npm run soak -- disk-full                             the embedded data directory fills up (tmpfs; root)
 *   npm run soak -- mix        [--minutes N] [--measure S] [--rate R] [--weights kind:%,…]   the soak mix on PostgreSQL
 *                              (at 70 % of the capacity measured first for S seconds, unless --rate)
 *
 * Exit status 0 on PASS, 1 on FAIL.
 */
import { parseArgs } from "node:util";
import { build } from "../build.mjs";
import { databaseOutage } from "./database-outage.js";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { down: { type: "string" }, kills: { type: "string" }, minutes: { type: "string" }, rate: { type: "string" }, measure: { type: "string" }, concurrency: { type: "string" }, weights: { type: "string" } },
});
const scenario = positionals[0];
const num = (v: string | undefined, d: number) => {
  if (v === undefined) return d;
  const n = Number(v);
  if (!(n > 0)) throw new Error(`"${v}" is not a positive number`);
  return n;
};

async function main(): Promise<boolean> {
  // The scenarios run the compiled apps, as production does.
  await build({ quiet: true });
  switch (scenario) {
    case "restart":
      return (await databaseOutage({ mode: "restart", downSeconds: num(values.down, 10), concurrency: num(values.concurrency, 8) })).ok;
    case "blackhole":
      return (await databaseOutage({ mode: "blackhole", downSeconds: num(values.down, 30), concurrency: num(values.concurrency, 8), afterSeconds: 20 })).ok;
    case "worker-kill":
      return (await (await import("./worker-kill.js")).workerKill({ kills: num(values.kills, 100) })).ok;
    case "disk-full":
      return (await (await import("./disk-full.js")).diskFull({})).ok;
    case "mix":
    {
      const mix = await import("./mix.js");
      return (await mix.soakMix({ minutes: num(values.minutes, 10), ...(values.rate ? { rate: num(values.rate, 0) } : {}), measureSeconds: num(values.measure, 30), ...(values.weights ? { weights: mix.parseWeights(values.weights) } : {}) })).ok;
    }
    default:
      console.error("usage: npm run soak -- <restart|blackhole|worker-kill|disk-full|mix> [--down S] [--kills N] [--minutes N] [--measure S] [--rate R] [--weights screen:70,batch:10,…]");
      return false;
  }
}

main().then((ok) => process.exit(ok ? 0 : 1), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
