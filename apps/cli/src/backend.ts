import type { EntityType, Verdict } from "@svc/core";
import { CliError, EXIT } from "./exit.js";
import type { LocalDb } from "./commands/api-access.js";
import type { Io } from "./io.js";
import { clientFor, remoteError, remoteTarget, type RemoteTarget, type Transport } from "./remote.js";

export interface ScreenInput {
  readonly entity_value: string;
  readonly type?: EntityType;
}

export type Outcome =
  | { readonly ok: true; readonly verdict: Verdict }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/** Where verdicts come from: the in-process screener, or a server through the SDK. */
export interface Backend {
  readonly kind: "embedded" | "remote";
  /** Largest chunk `screen` accepts. */
  readonly chunkSize: number;
  /** Screens a chunk; one outcome per input, in input order. Throws CliError on transport or auth failures. */
  screen(inputs: readonly ScreenInput[]): Promise<Outcome[]>;
  close(): Promise<void>;
}

/** In-process screening with the bundled reference data (no server, no database). */
export async function embeddedBackend(options: { concurrency?: number } = {}): Promise<Backend> {
  const core = await import("@svc/core");
  const screener = core.createScreener();
  return {
    kind: "embedded",
    chunkSize: core.MAX_BATCH,
    async screen(inputs) {
      const items = await core.screenBatch(inputs, screener.deps, { concurrency: options.concurrency ?? 8 });
      return items.map((i): Outcome => (i.status === "ok" ? { ok: true, verdict: i.result.verdict } : { ok: false, error: { code: i.error.code, message: i.error.message } }));
    },
    close: async () => {},
  };
}

/**
 * In-process with the local database (`--db`): imported intel, community reports and the graph
 * are consulted, and each check is recorded in history and the audit trail — as the server does,
 * through the same code (@svc/server's `record`), on the admin account with this CLI's key.
 */
export async function databaseBackend(local: LocalDb, options: { concurrency?: number } = {}): Promise<Backend> {
  const core = await import("@svc/core");
  const { record } = await import("@svc/server");
  const { ADMIN_ACCOUNT_ID } = await import("./local.js");
  const s = local.runtime.services;
  const { id: keyId } = await local.cliKey();
  const caller = { accountId: ADMIN_ACCOUNT_ID, keyId, plan: "operator", role: "operator" as const };
  return {
    kind: "embedded",
    chunkSize: core.MAX_BATCH,
    async screen(inputs) {
      const items = await core.screenBatch(inputs, s.screening, { concurrency: options.concurrency ?? 8 });
      const stored = new Set<string>();
      const out: Outcome[] = [];
      for (const i of items) {
        if (i.status === "error") {
          out.push({ ok: false, error: { code: i.error.code, message: i.error.message } });
          continue;
        }
        if (!stored.has(i.result.verdict.id)) {
          stored.add(i.result.verdict.id);
          await record(s, caller, inputs[i.index] as ScreenInput, i.result);
        }
        out.push({ ok: true, verdict: i.result.verdict });
      }
      return out;
    },
    close: () => local.close(),
  };
}

/**
 * A server's /v1 API: one entity → POST /v1/screen; more → POST /v1/screen/batch in chunks of
 * ≤ 100, and never more than the key's plan allows per minute (read from GET /v1/usage), so a
 * batch file goes through on any plan: a chunk that meets a full window waits as Retry-After says.
 */
export async function remoteBackend(target: RemoteTarget, transport: Transport = {}): Promise<Backend> {
  const perMinute = await planPerMinute(target, transport);
  // On a per-minute plan a chunk may wait up to a whole window for room, more than once when
  // several are in flight: enough retries of up to 61 s each to get through.
  const client = await clientFor(target, perMinute === null ? transport : { ...transport, maxRetries: 10, maxRetryDelayMs: 61_000 });
  const fail = async (e: unknown): Promise<never> => {
    throw (await remoteError(e, target.url)) ?? e;
  };
  return {
    kind: "remote",
    chunkSize: Math.max(1, Math.min(100, perMinute ?? 100)),
    async screen(inputs) {
      if (inputs.length === 1) {
        const input = inputs[0] as ScreenInput;
        try {
          return [{ ok: true, verdict: (await client.screen(input)) as Verdict }];
        } catch (e) {
          const { SvcApiError } = await import("@svc/sdk");
          if (e instanceof SvcApiError && e.status === 422) return [{ ok: false, error: { code: e.code, message: e.problem.detail } }];
          return fail(e);
        }
      }
      try {
        const res = await client.screenBatch(inputs);
        const out: Outcome[] = inputs.map(() => ({ ok: false, error: { code: "remote.missing_result", message: "The server returned no result for this entity." } }));
        for (const r of res.results) {
          if (r.index < 0 || r.index >= out.length) continue;
          out[r.index] = r.status === "ok" && r.result ? { ok: true, verdict: r.result as Verdict } : { ok: false, error: r.error ?? { code: "remote.error", message: "The server could not screen this entity." } };
        }
        return out;
      } catch (e) {
        return fail(e);
      }
    },
    close: async () => {},
  };
}

/** The key's per-minute limit, or null when unlimited or not known (an older server; it then answers for itself). */
async function planPerMinute(target: RemoteTarget, transport: Transport): Promise<number | null> {
  try {
    const usage = await (await clientFor(target, { ...transport, maxRetries: 0 })).usage();
    return usage.limits.per_minute;
  } catch {
    return null;
  }
}

/** Loading @svc/core failed: say so plainly instead of a module stack trace. */
export function coreLoadError(e: unknown): CliError {
  return new CliError(`The embedded screener could not start: ${e instanceof Error ? e.message : String(e)}`, EXIT.internal, "Use a server instead with --url/--key, or report this bug with the message above.");
}

export interface BackendFlags {
  readonly url?: string;
  readonly key?: string;
  readonly db?: boolean;
  readonly dataDir?: string;
}

/** --url/--key (or SVC_URL) → remote; --db → in-process on the local database; else in-process, no database. */
export async function chooseBackend(flags: BackendFlags, io: Io, options: { concurrency?: number } = {}): Promise<Backend> {
  const target = remoteTarget(flags, io.env);
  if (target && flags.db) throw new CliError("--db screens on this machine's database and --url on a server: give one of them.", EXIT.usage, flags.url ? undefined : "SVC_URL is set in the environment; unset it to use --db.");
  if (target) return remoteBackend(target);
  try {
    if (flags.db) {
      const { openLocal } = await import("./local.js");
      const local = await openLocal(io, flags.dataDir !== undefined ? { dataDir: flags.dataDir } : {});
      try {
        return await databaseBackend(local, options);
      } catch (e) {
        await local.close();
        throw e;
      }
    }
    return await embeddedBackend(options);
  } catch (e) {
    throw e instanceof CliError ? e : coreLoadError(e);
  }
}
