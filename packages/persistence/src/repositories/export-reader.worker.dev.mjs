// Entry of the export's reading thread when the package runs from its TypeScript sources (tests,
// `tsx`): the TypeScript loader first, then the thread. Compiled, export-thread.js starts
// export-reader.worker.js itself.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });
await import("./export-reader.worker.ts");
