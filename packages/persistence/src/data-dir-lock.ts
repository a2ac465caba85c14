import { closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";

/** The lock file's name inside the PGlite data directory (PostgreSQL ignores files it does not know). */
export const LOCK_FILE = "svc.lock";

/** Another live process (or this one, through another DataSource) has the embedded data directory open. */
export class DataDirInUseError extends Error {
  override readonly name = "DataDirInUseError";
  readonly code = "data_dir.in_use";
  constructor(
    /** The PGlite data directory, absolute. */
    readonly dir: string,
    readonly pid: number,
    /** Where a server holding the directory listens, when it said so (`DataDirLock.note`). */
    readonly url: string | null,
  ) {
    super(`the data directory ${dir} is in use by another svc process${pid > 0 ? ` (pid ${pid})` : ""}${url ? ` serving ${url}` : ""}`);
  }
}

/** The DataDirInUseError behind `e` (possibly wrapped, as `cause`, by whoever opened the database), or null. */
export function dataDirInUseCause(e: unknown): DataDirInUseError | null {
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 8; c = c.cause, depth++) if (c instanceof DataDirInUseError) return c;
  return null;
}

export interface DataDirLock {
  readonly dir: string;
  /** Records where this process serves the database, so a refused process can say where to go instead. */
  note(url: string): void;
  release(): void;
}

/** Locks held by this process, by absolute directory: a second DataSource here must be refused too. */
const held = new Map<string, DataDirLock>();

/**
 * Takes the embedded database's directory for this process, or throws DataDirInUseError.
 *
 * PGlite is one process's database: two processes writing one directory lose each other's writes
 * (or corrupt it). The lock is a file created exclusively (`wx`) holding the owner's pid; a file
 * whose pid is no longer alive (the owner was killed) is stale and taken over. Liveness is
 * `kill(pid, 0)`, so the directory must not be shared between machines or pid namespaces.
 */
export function lockDataDir(dir: string): DataDirLock {
  const abs = resolve(dir);
  const mine = held.get(abs);
  if (mine) throw new DataDirInUseError(abs, process.pid, readOwner(join(abs, LOCK_FILE))?.url ?? null);
  const file = join(abs, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = readOwner(file);
      // A file with our own pid that we do not hold is a leftover from an earlier run that had the
      // same pid (containers restart as pid 1): stale, like any other dead owner.
      if (owner && owner.pid !== process.pid && alive(owner.pid)) throw new DataDirInUseError(abs, owner.pid, owner.url);
      if (!owner && recentlyWritten(file)) {
        // Created but not yet written by a process starting right now: treat it as taken.
        throw new DataDirInUseError(abs, 0, null);
      }
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    const lock: DataDirLock = {
      dir: abs,
      note: (url) => {
        if (!released) writeFileSync(file, `${process.pid}\n${url}\n`);
      },
      release: () => {
        if (released) return;
        released = true;
        held.delete(abs);
        // Only our own file: never remove one a later owner took over.
        if (readOwner(file)?.pid === process.pid) rmSync(file, { force: true });
      },
    };
    held.set(abs, lock);
    return lock;
  }
  throw new DataDirInUseError(abs, readOwner(file)?.pid ?? 0, null);
}

/** The lock this process holds on `dir`, if any (to `note` the URL it serves). */
export function heldDataDirLock(dir: string): DataDirLock | undefined {
  return held.get(resolve(dir));
}

function readOwner(file: string): { pid: number; url: string | null } | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const [pidText, url] = text.split("\n");
  const pid = Number(pidText?.trim());
  return Number.isInteger(pid) && pid > 0 ? { pid, url: url?.trim() || null } : null;
}

function recentlyWritten(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < 2_000;
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to another user — still alive.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
