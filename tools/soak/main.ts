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
/** A mistake in the command line: said in one line, with the usage, not as a stack trace. */
class UsageError extends Error {}
const USAGE = "usage: npm run soak -- <restart|blackhole|worker-kill|disk-full|mix> [--down S] [--concurrency N] [--kills N] [--minutes N] [--measure S] [--rate R] [--weights screen:70,batch:10,…]";
const num = (name: keyof typeof values, d: number) => {
  const v = values[name];
  if (v === undefined) return d;
  const n = Number(v);
  if (typeof v !== "string" || !(n > 0)) throw new UsageError(`--${name} ${String(v)}: not a positive number`);
  return n;
};

async function main(): Promise<boolean> {
  // The scenarios run the compiled apps, as production does.
  await build({ quiet: true });
  switch (scenario) {
    case "restart":
      return (await databaseOutage({ mode: "restart", downSeconds: num("down", 10), concurrency: num("concurrency", 8) })).ok;
    case "blackhole":
      return (await databaseOutage({ mode: "blackhole", downSeconds: num("down", 30), concurrency: num("concurrency", 8), afterSeconds: 20 })).ok;
    case "worker-kill":
      return (await (await import("./worker-kill.js")).workerKill({ kills: num("kills", 100) })).ok;
    case "disk-full":
      return (await (await import("./disk-full.js")).diskFull({})).ok;
    case "mix":
    {
      const mix = await import("./mix.js");
      return (await mix.soakMix({ minutes: num("minutes", 10), ...(values.rate ? { rate: num("rate", 0) } : {}), measureSeconds: num("measure", 30), ...(values.weights ? { weights: mix.parseWeights(values.weights) } : {}) })).ok;
    }
    default:
      console.error(USAGE);
      return false;
  }
}

main().then((ok) => process.exit(ok ? 0 : 1), (e: unknown) => {
  // A bad option (a number, --weights) in one line; anything else with its stack.
  const usage = e instanceof UsageError || (e instanceof Error && e.message.startsWith("--weights:"));
  console.error(usage ? `${(e as Error).message}\n${USAGE}` : e);
  process.exit(1);
});
