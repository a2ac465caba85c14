import { statfsSync } from "node:fs";

/**
 * Free space on the embedded data directory. PGlite does not fail a write cleanly when its disk
 * is full (the statement never answers), so the server refuses writes while the directory's file
 * system has less than `minFreeBytes` left, well before PGlite can run out (decision 0046).
 */
export interface DiskSpace {
  readonly dir: string;
  readonly minFreeBytes: number;
  /** Null while there is enough room; else the free bytes last seen. Cheap: re-reads at most every `everyMs`. */
  shortage(): { readonly freeBytes: number } | null;
}

export interface DiskSpaceOptions {
  /** Milliseconds between two reads of the file system (default 1,000). */
  readonly everyMs?: number;
  readonly now?: () => number;
  /** The file system's answer for `dir` (tests). */
  readonly statfs?: (dir: string) => { readonly bavail: number; readonly bsize: number };
  /** Called when the directory goes short or gets room again. */
  readonly onChange?: (short: boolean, freeBytes: number) => void;
}

export function diskSpaceGuard(dir: string, minFreeBytes: number, o: DiskSpaceOptions = {}): DiskSpace {
  const everyMs = o.everyMs ?? 1_000;
  const now = o.now ?? (() => performance.now());
  const statfs = o.statfs ?? ((d: string) => statfsSync(d));
  let readAt = Number.NEGATIVE_INFINITY;
  let free = Number.POSITIVE_INFINITY;
  let short = false;
  return {
    dir,
    minFreeBytes,
    shortage() {
      const t = now();
      if (t - readAt >= everyMs) {
        readAt = t;
        try {
          const s = statfs(dir);
          free = s.bavail * s.bsize;
        } catch {
          // The directory cannot be read at all: the database will fail on its own and say why.
          free = Number.POSITIVE_INFINITY;
        }
        const nowShort = free < minFreeBytes;
        if (nowShort !== short) o.onChange?.(nowShort, free);
        short = nowShort;
      }
      return short ? { freeBytes: free } : null;
    },
  };
}
