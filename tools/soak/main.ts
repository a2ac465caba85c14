/**
 * Reliability scenarios, each one command that stops by itself and touches only 127.0.0.1:
 *
 *   npm run soak -- restart    [--down S]                 PostgreSQL (private instance) restart under load
 *   npm run soak -- blackhole  [--down S]                 the database network stops answering (TCP proxy)
 *   npm run soak -- worker-kill [--kills N]               SIGKILL the async worker N times under load
 *   npm run soak -- disk-full                             the embedded data directory fills up (tmpfs; root)
 *   npm run soak -- mix        [--minutes N] [--measure S] [--rate R] [--weights kind:%,…]   the soak mix on PostgreSQL
 *                              (at 70 % of the capacity measured first for S seconds, default 120,
 *                              unless --rate; the measurement runs with --rate too: it warms up)
 *
 * Exit status 0 on PASS, 1 on FAIL, 2 on a mistake in the command line.
 */
import { parseArgs } from "node:util";
import { build } from "../build.mjs";
import { databaseOutage } from "./database-outage.js";
import { MEASURE_SECONDS, parseWeights } from "./mix.js";

/** A mistake in the command line: said in one line, with the usage, not as a stack trace. */
class UsageError extends Error {}
const USAGE = "usage: npm run soak -- <restart|blackhole|worker-kill|disk-full|mix> [--down S] [--concurrency N] [--kills N] [--minutes N] [--measure S] [--rate R] [--weights screen:70,batch:10,…]";
const SCENARIOS = ["restart", "blackhole", "worker-kill", "disk-full", "mix"] as const;
const NUMBERS = ["down", "kills", "minutes", "rate", "measure", "concurrency"] as const;
type NumberOption = (typeof NUMBERS)[number];

/** The command line, read and checked before anything is built or started. */
function options(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...Object.fromEntries(NUMBERS.map((n) => [n, { type: "string" as const }])), weights: { type: "string" } } });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const scenario = parsed.positionals[0];
  if (!SCENARIOS.includes(scenario as (typeof SCENARIOS)[number])) throw new UsageError(scenario === undefined ? "which scenario?" : `no scenario "${scenario}"`);
  const values = parsed.values as Partial<Record<NumberOption | "weights", string>>;
  const given: Partial<Record<NumberOption, number>> = {};
  for (const name of NUMBERS) {
    const v = values[name];
    if (v === undefined) continue;
    const n = Number(v);
    if (v.trim() === "" || !(n > 0) || !Number.isFinite(n)) throw new UsageError(`--${name} ${JSON.stringify(v)}: not a positive number`);
    given[name] = n;
  }
  let weights;
  try {
    weights = values.weights === undefined ? undefined : parseWeights(values.weights);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { scenario: scenario as (typeof SCENARIOS)[number], n: (name: NumberOption, d: number) => given[name] ?? d, rate: given.rate, weights };
}

async function main(): Promise<boolean> {
  const o = options(process.argv.slice(2));
  // The scenarios run the compiled apps, as production does.
  await build({ quiet: true });
  switch (o.scenario) {
    case "restart":
      return (await databaseOutage({ mode: "restart", downSeconds: o.n("down", 10), concurrency: o.n("concurrency", 8) })).ok;
    case "blackhole":
      return (await databaseOutage({ mode: "blackhole", downSeconds: o.n("down", 30), concurrency: o.n("concurrency", 8), afterSeconds: 20 })).ok;
    case "worker-kill":
      return (await (await import("./worker-kill.js")).workerKill({ kills: o.n("kills", 100) })).ok;
    case "disk-full":
      return (await (await import("./disk-full.js")).diskFull({})).ok;
    case "mix":
      return (await (await import("./mix.js")).soakMix({ minutes: o.n("minutes", 10), measureSeconds: o.n("measure", MEASURE_SECONDS), ...(o.rate === undefined ? {} : { rate: o.rate }), ...(o.weights ? { weights: o.weights } : {}) })).ok;
  }
}

main().then((ok) => process.exit(ok ? 0 : 1), (e: unknown) => {
  console.error(e instanceof UsageError ? `${e.message}\n${USAGE}` : e);
  process.exit(e instanceof UsageError ? 2 : 1);
});
