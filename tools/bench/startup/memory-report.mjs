// Preloaded into the API by tools/bench/startup/main.ts (NODE_OPTIONS=--import=<this file>): on
// SIGUSR2 the process writes one line `svc-memory {json}` to stderr with where its resident memory
// is. Nothing else changes (no forced GC, no flags): the figures are the idle process's own.
//
//   rss           VmRSS
//   files         resident pages of mapped files (the node binary and shared libraries)
//   v8Heap        V8's heap, physical (committed and touched) size of all its spaces
//   wasmMemory    resident part of the WebAssembly memory (PGlite's PostgreSQL): the read-write
//                 anonymous mapping that V8 places right before its guard reservation (≥ 4 GiB, no access)
//   other         the rest: malloc (compiled WebAssembly and JavaScript code, compiler zones,
//                 buffers), thread stacks
import { readFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";

const GUARD = 4 * 1024 ** 3;

function residentBreakdown() {
  let rss = 0;
  let files = 0;
  let wasmMemory = 0;
  let previous = null;
  let current = null;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (head) {
      // address perms offset device inode [path]
      const fields = line.split(" ").filter((f) => f !== "");
      previous = current;
      current = { size: Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16), perm: fields[1], name: fields.slice(5).join(" "), rss: 0 };
      // A guard reservation right after a read-write anonymous mapping: that mapping is WebAssembly memory.
      if (previous && current.perm === "---p" && current.name === "" && current.size >= GUARD && previous.perm === "rw-p" && previous.name === "") wasmMemory += previous.rss;
      continue;
    }
    const kb = /^Rss:\s+(\d+) kB/.exec(line);
    if (kb && current) {
      current.rss = Number(kb[1]) * 1024;
      rss += current.rss;
      if (current.name.startsWith("/")) files += current.rss;
    }
  }
  return { rss, files, wasmMemory };
}

process.on("SIGUSR2", () => {
  const { rss, files, wasmMemory } = residentBreakdown();
  const v8Heap = getHeapSpaceStatistics().reduce((sum, s) => sum + s.physical_space_size, 0);
  const mem = process.memoryUsage();
  const mb = (n) => Math.round((n / 1048576) * 10) / 10;
  const report = {
    rss: mb(rss), files: mb(files), v8Heap: mb(v8Heap), heapUsed: mb(mem.heapUsed), wasmMemory: mb(wasmMemory),
    other: mb(rss - files - v8Heap - wasmMemory), external: mb(mem.external), arrayBuffers: mb(mem.arrayBuffers),
  };
  process.stderr.write(`svc-memory ${JSON.stringify(report)}\n`);
});
