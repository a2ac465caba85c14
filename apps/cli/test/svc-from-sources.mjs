// `svc` from its TypeScript sources, for the tests: the TypeScript loader (with the CLI's
// tsconfig, whatever the working directory), then src/main.ts. bin/svc.js runs the compiled dist/.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
await import("../src/main.ts");
