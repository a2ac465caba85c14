#!/usr/bin/env node
// The `svc` launcher: runs the TypeScript sources through tsx, from any working directory
// (`npx svc …` in the repository, or the linked bin). The tsconfig is named explicitly so a
// tsconfig.json in the caller's directory cannot change how the CLI compiles.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
await import("../src/main.ts");
