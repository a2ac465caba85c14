// The cost of one log line as the API writes it for every request (`{ request_id, method, path,
// status, ms, key_id }`, info level), through svc's logger (secrets blanked by `redactSecrets`,
// decision 0114) beside two baselines in the same run: bare pino with no redaction, and pino's
// own `redact` option given the same secrets as paths (what svc's logger used before).
//   npx tsx tools/bench/api/log-line.ts [lines, default 100000] [rounds, default 3]
import { cpus } from "node:os";
import { createLogger, LOG_SECRETS } from "@svc/runtime";
import { pino } from "pino";

const LINES = Number(process.argv[2] ?? "100000");
const ROUNDS = Number(process.argv[3] ?? "3");
const sink = { write: (_s: string) => {} };
const paths = [
  ...LOG_SECRETS.headers.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `res.headers["${h}"]`]),
  ...LOG_SECRETS.names.flatMap((f) => [f, `*.${f}`]),
];
const loggers = {
  "svc logger (redactSecrets)": createLogger("info", sink),
  "pino, no redaction": pino({ level: "info" }, sink),
  [`pino redact, ${paths.length} paths (before)`]: pino({ level: "info", redact: { paths, censor: "[redacted]" } }, sink),
};
const line = { request_id: "req_01m8f5kkhrwrb0sx9677z7p8dg", method: "POST", path: "/v1/screen", status: 200, ms: 4, key_id: "key_5f2c9a" };
console.log(`node ${process.version}, ${cpus()[0]?.model.trim()} × ${cpus().length}; ${LINES.toLocaleString("en-US")} lines per logger per round, ${ROUNDS} rounds`);
const best = new Map<string, number>();
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, logger] of Object.entries(loggers)) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < LINES; i++) logger.info(line, "request");
    const us = Number(process.hrtime.bigint() - t) / 1000 / LINES;
    best.set(name, Math.min(best.get(name) ?? Infinity, us));
  }
}
const bare = best.get("pino, no redaction") as number;
for (const [name, us] of best) console.log(`${name.padEnd(40)} ${us.toFixed(2).padStart(7)} µs per line (best of ${ROUNDS}), ${(us / bare).toFixed(1)}× bare pino`);
