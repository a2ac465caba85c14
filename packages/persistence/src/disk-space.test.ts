import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { diskSpaceGuard } from "./disk-space.js";

describe("diskSpaceGuard", () => {
  it("reports a shortage below the minimum and recovers when space returns, reading the file system at most once per interval", () => {
    let t = 0;
    let bavail = 1_000;
    let reads = 0;
    const changes: boolean[] = [];
    const g = diskSpaceGuard("/data", 600 * 4096, {
      now: () => t,
      statfs: () => (reads++, { bavail, bsize: 4096 }),
      onChange: (short) => changes.push(short),
    });
    expect(g.shortage()).toBeNull();
    bavail = 100;
    expect(g.shortage()).toBeNull(); // still the reading of t=0
    expect(reads).toBe(1);
    t = 1_000;
    expect(g.shortage()).toEqual({ freeBytes: 100 * 4096 });
    t = 1_500;
    bavail = 5_000;
    expect(g.shortage()).not.toBeNull();
    t = 2_000;
    expect(g.shortage()).toBeNull();
    expect(reads).toBe(3);
    expect(changes).toEqual([true, false]);
  });

  it("reads the real file system of a directory", () => {
    const dir = mkdtempSync(`${tmpdir()}/svc-disk-`);
    expect(diskSpaceGuard(dir, 1).shortage()).toBeNull();
    expect(diskSpaceGuard(dir, Number.MAX_SAFE_INTEGER).shortage()?.freeBytes).toBeGreaterThan(0);
  });
});
