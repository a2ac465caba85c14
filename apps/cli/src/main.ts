import { processIo } from "./io.js";
import { run } from "./program.js";

// A reader that went away (`svc batch … | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}

process.exitCode = await run(process.argv.slice(2), processIo());
