// Entry of a `svc batch` worker thread when the CLI runs from its TypeScript sources (tests,
// `tsx`): the TypeScript loader first, then the worker. Compiled, the pool starts worker.js itself.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });
await import("./worker.ts");
