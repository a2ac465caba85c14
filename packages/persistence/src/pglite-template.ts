import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";

/**
 * A new embedded database starts from a copy of a freshly initialised PostgreSQL cluster rather
 * than running initdb, which in WebAssembly costs 4–7 s of CPU; unpacking the copy costs under
 * one (docs/decisions/0047-embedded-database-from-an-initdb-image.md). The copy is PGlite's own
 * data-directory tarball (what `PGlite.clone()` uses), made once per PGlite version by running
 * initdb in memory, and kept in `cacheDir` (default `~/.cache/svc`) for the next process. Nothing of
 * svc is in it: migrations run on the new database as before.
 */
export const DEFAULT_TEMPLATE_CACHE_DIR = join(homedir(), ".cache", "svc");

let version: string | undefined;
function pgliteVersion(): string {
  if (version === undefined) {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    const pkg = JSON.parse(readFileSync(join(dirname(dirname(entry)), "package.json"), "utf8")) as { version?: unknown };
    version = typeof pkg.version === "string" ? pkg.version : "unknown";
  }
  return version;
}

/** The cache file of this PGlite version in `cacheDir`. */
export function templateFile(cacheDir: string): string {
  return join(cacheDir, `pglite-${pgliteVersion()}-initdb.tar.gz`);
}

/** Made in this process and not stored (no usable cache directory), or being made now. */
let inProcess: Promise<Uint8Array> | undefined;

/**
 * The initialised cluster's tarball: from the cache file when there is one of ours, else made now
 * (and stored for the next process when `cacheDir` is writable). Never throws for a cache problem:
 * an unreadable, foreign or unwritable cache only means initdb runs.
 */
export async function freshClusterImage(cacheDir: string | null = DEFAULT_TEMPLATE_CACHE_DIR): Promise<Blob> {
  const file = cacheDir === null ? null : templateFile(cacheDir);
  const cached = file === null ? null : readOwnFile(file);
  if (cached) return new Blob([cached]);
  const made = (inProcess ??= makeImage());
  let bytes: Uint8Array;
  try {
    bytes = await made;
  } catch (e) {
    if (inProcess === made) inProcess = undefined;
    throw e;
  }
  // Stored: later calls read the file and this process holds no copy. Not stored: kept here.
  if (file !== null && storeFile(file, bytes) && inProcess === made) inProcess = undefined;
  return new Blob([bytes]);
}

/** Forgets a cache file that PGlite could not load, so the next database is made by initdb again. */
export function discardTemplate(cacheDir: string | null = DEFAULT_TEMPLATE_CACHE_DIR): void {
  inProcess = undefined;
  if (cacheDir !== null) rmSync(templateFile(cacheDir), { force: true });
}

async function makeImage(): Promise<Uint8Array> {
  const pg = await PGlite.create();
  try {
    const dump = await pg.dumpDataDir("gzip");
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await pg.close();
  }
}

/** The file's bytes when it is a gzip file owned by this user and writable by no one else. */
function readOwnFile(file: string): Uint8Array | null {
  try {
    const st = statSync(file);
    const uid = process.getuid?.();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return null;
    const bytes = readFileSync(file);
    return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? bytes : null;
  } catch {
    return null;
  }
}

/** Written beside its final name and renamed into place, so a reader never sees half a file. */
function storeFile(file: string, bytes: Uint8Array): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, file);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
