// Entry of a `svc batch` worker thread: the TypeScript loader first (as bin/svc.js does), then the worker.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });
await import("./worker.ts");
