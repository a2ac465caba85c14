import type { SvcClient } from "@svc/sdk";
import { Option, type Command } from "commander";
import { CliError } from "../exit.js";
import type { Io } from "../io.js";
import { clientFor, remoteError, remoteTarget } from "../remote.js";

export interface AccessFlags {
  readonly url?: string;
  readonly key?: string;
  readonly dataDir?: string;
}

export function addDataDirOption(cmd: Command): Command {
  return cmd.addOption(new Option("--data-dir <dir>", "embedded database directory (default: $SVC_DATA_DIR or ./.svc; DATABASE_URL selects PostgreSQL)"));
}

/**
 * Runs `fn` with an SDK client: for a server (--url/--key or SVC_URL/SVC_API_KEY), or for the
 * API served in-process on the local database. Both paths share every line of `fn`.
 */
export async function withApi<T>(io: Io, flags: AccessFlags, fn: (client: SvcClient, where: string) => Promise<T>): Promise<T> {
  const target = remoteTarget(flags, io.env);
  if (target) {
    const client = await clientFor(target);
    try {
      return await fn(client, target.url);
    } catch (e) {
      throw e instanceof CliError ? e : ((await remoteError(e, target.url)) ?? e);
    }
  }
  const { openLocal } = await import("../local.js");
  const local = await openLocal(io, flags);
  try {
    const client = await local.client();
    return await fn(client, local.where);
  } catch (e) {
    throw e instanceof CliError ? e : ((await remoteError(e, local.where)) ?? e);
  } finally {
    await local.close();
  }
}

export type LocalDb = Awaited<ReturnType<typeof import("../local.js").openLocal>>;

/**
 * Runs `fn` on the local database (opened, migrated, locked) and always closes it. `localOnly`:
 * the command has no --url, and this says why, for when a running server holds the database.
 */
export async function withLocal(io: Io, flags: { dataDir?: string }, fn: (local: LocalDb) => Promise<void>, localOnly?: string): Promise<void> {
  const { openLocal } = await import("../local.js");
  const local = await openLocal(io, flags, localOnly ? { localOnly } : {});
  try {
    await fn(local);
  } finally {
    await local.close();
  }
}
