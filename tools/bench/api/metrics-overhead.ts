// What the /metrics instrumentation costs per HTTP request: the same Hono app (one parameterised
// GET route answering JSON) with and without the API's `httpMetrics()` middleware, driven in
// process through app.fetch (no sockets, no database), in alternating rounds so that load from
// other processes hits both alike. Prints CPU µs per request (median of the rounds) and the difference.
//   npx tsx tools/bench/api/metrics-overhead.ts [requests per round, default 20000] [rounds, default 10]
import { loadavg } from "node:os";
import { Hono } from "hono";
import { httpMetrics } from "../../../packages/server/src/middleware/metrics.js";

const PER_ROUND = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 10);

function app(withMetrics: boolean): Hono {
  const a = new Hono();
  if (withMetrics) a.use("*", httpMetrics());
  a.get("/v1/checks/:id", (c) => c.json({ id: c.req.param("id"), status: "ok" }));
  return a;
}

async function round(a: Hono): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) {
    const res = await a.fetch(new Request(`http://bench.local/v1/checks/chk_${i % 1000}`));
    await res.arrayBuffer();
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / PER_ROUND;
}

const plain = app(false);
const measured = app(true);
await round(plain);
await round(measured);
const a: number[] = [];
const b: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  a.push(await round(plain));
  b.push(await round(measured));
}
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
const [ma, mb] = [median(a), median(b)];
console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}; ${ROUNDS} rounds of ${PER_ROUND} requests each`);
console.log(`without httpMetrics: ${ma.toFixed(2)} µs CPU per request (rounds: ${a.map((x) => x.toFixed(1)).join(", ")})`);
console.log(`with httpMetrics:    ${mb.toFixed(2)} µs CPU per request (rounds: ${b.map((x) => x.toFixed(1)).join(", ")})`);
console.log(`difference: ${(mb - ma).toFixed(2)} µs per request (${(((mb - ma) / ma) * 100).toFixed(1)}% of this minimal route)`);
