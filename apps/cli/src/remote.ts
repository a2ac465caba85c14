import { cliSettings } from "@svc/runtime/cli-settings";
import type { SvcClient } from "@svc/sdk";
import { CliError, EXIT } from "./exit.js";
import type { Io } from "./io.js";

export interface RemoteFlags {
  readonly url?: string;
  readonly key?: string;
}

export interface RemoteTarget {
  readonly url: string;
  readonly key: string;
}

/** `--url`/`--key` win over SVC_URL/SVC_API_KEY; no URL at all means embedded mode (null). */
export function remoteTarget(flags: RemoteFlags, env: Io["env"]): RemoteTarget | null {
  const settings = cliSettings(env);
  const url = flags.url ?? settings.SVC_URL;
  const key = flags.key ?? settings.SVC_API_KEY;
  if (url === undefined) {
    if (flags.key !== undefined) throw new CliError("--key was given without a server URL.", EXIT.usage, "Add --url https://your-server (or set SVC_URL), or drop --key to screen in-process.");
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`The server URL ${JSON.stringify(url)} is not a valid URL.`, EXIT.usage, "Give a full URL such as --url http://127.0.0.1:8080 (or set SVC_URL).");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new CliError(`The server URL must start with http:// or https:// (got ${parsed.protocol}).`, EXIT.usage);
  if (key === undefined) throw new CliError(`No API key for ${url}.`, EXIT.usage, "Pass --key svc_live_… or set SVC_API_KEY. Create a key on the server with `svc keys create`.");
  return { url, key };
}

/** How the CLI talks HTTP; tests give their own fetch and sleep. */
export interface Transport {
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

export async function clientFor(target: RemoteTarget, transport: Transport & { maxRetries?: number; maxRetryDelayMs?: number } = {}): Promise<SvcClient> {
  const { SvcClient } = await import("@svc/sdk");
  return new SvcClient({ baseUrl: target.url, apiKey: target.key, maxRetries: 3, maxRetryDelayMs: 30_000, ...transport });
}

/**
 * Turns what the SDK throws into an error the user can act on. Entity-level 422s are not
 * mapped here: callers that screen turn them into per-entity errors.
 */
export async function remoteError(e: unknown, where: string): Promise<CliError | null> {
  const { SvcApiError, SvcUnreachableError } = await import("@svc/sdk");
  if (e instanceof SvcUnreachableError) {
    // fetch refuses a fixed list of ports (1, 9, 25, 6000, …) before trying to connect.
    if (/bad port/.test(e.message)) return new CliError(`Cannot reach the server: ${where} uses a port that fetch refuses to connect to (a reserved port).`, EXIT.unavailable, "Use the port the server listens on (svc serve prints it; 8080 by default).");
    return new CliError(`Cannot reach the server: ${e.message.replace(/^cannot reach /, "")}.`, EXIT.unavailable, `Is it running? Start one with \`svc serve\`, or check --url / SVC_URL (now ${where}).`);
  }
  if (!(e instanceof SvcApiError)) return null;
  const p = e.problem;
  const rid = p.request_id && p.request_id !== "unknown" ? ` (request ${p.request_id})` : "";
  switch (e.status) {
    case 401:
      return new CliError(`The server refused the API key: ${p.detail}${rid}`, EXIT.unavailable, "Check --key / SVC_API_KEY. On the server, `svc keys list` shows the keys and `svc keys create` makes a new one.");
    case 403:
      return new CliError(`The API key is not allowed to do this: ${p.detail}${rid}`, EXIT.unavailable, "Use a key on a plan that allows it (`svc keys create --plan pro` on the server).");
    case 429:
      if (p.code === "quota_exceeded") return new CliError(`The key's monthly quota is used up: ${p.detail}${rid}`, EXIT.unavailable, "Use a key on a bigger plan (`svc keys create --plan pro` on the server; the operator's own key has no limit), or wait for the next month.");
      return new CliError(`Rate limited by the server, still after retries: ${p.detail}${rid}`, EXIT.unavailable, "Wait and retry, lower --concurrency, or use a key on a bigger plan.");
    case 404:
      return new CliError(`Not found: ${p.detail}${rid}`, EXIT.usage);
    case 400:
    case 413:
    case 415:
    case 422:
      return new CliError(`The server rejected the request: ${p.detail}${rid}`, EXIT.usage);
    default:
      return new CliError(`The server failed (${e.status} ${p.code}): ${p.detail}${rid}`, EXIT.unavailable, p.retryable ? "This is retryable: try again in a moment." : "If it persists, the server log has the request id.");
  }
}
