// `npm start`, `node apps/api/dist/main.js`: the API (run.ts).
//
// Loading the API's modules (their source texts, compiled code and the data they build) grows V8's
// young generation to 2 × 8 MB before the first line of the API runs, and an idle process keeps it.
// So this entry first sets V8's growth factor to 1 (young-generation.ts, imported statically: a
// module's static imports are all loaded before any of them runs), and only then loads the rest,
// with a dynamic import (docs/decisions/0090, 0099).
import "./young-generation.js";

await import("./run.js");
