import { createHash } from "node:crypto";
import type { FeedDefinition } from "./config.js";

export type FeedErrorCode = "feed.unreachable" | "feed.timeout" | "feed.http_status" | "feed.too_large" | "feed.malformed" | "feed.empty";

/** Why a feed could not be loaded; its old entries are kept. */
export class FeedError extends Error {
  override readonly name = "FeedError";
  constructor(readonly code: FeedErrorCode, message: string) {
    super(message);
  }
}

export interface Validators {
  readonly etag: string | null;
  readonly last_modified: string | null;
}

export type Fetched =
  | { readonly notModified: true }
  | { readonly notModified: false; readonly text: string; readonly sha256: string; readonly etag: string | null; readonly lastModified: string | null; readonly bytes: number };

export interface FetchOptions {
  readonly fetch?: typeof fetch;
  /** Overrides the feed's timeout_seconds (tests). */
  readonly timeoutMs?: number;
  readonly userAgent?: string;
}

/**
 * A conditional GET of a feed (If-None-Match / If-Modified-Since from its last response): 304 is
 * "not modified"; any other non-2xx status, a network error, the timeout (for the whole answer,
 * body included) or a body over max_megabytes is a FeedError. The body is read as UTF-8.
 */
export async function fetchFeed(def: FeedDefinition, prior: Validators | null, opts: FetchOptions = {}): Promise<Fetched> {
  const timeoutMs = opts.timeoutMs ?? def.timeout_seconds * 1000;
  const maxBytes = def.max_megabytes * 1024 * 1024;
  const signal = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = { "user-agent": opts.userAgent ?? "svc-feed-sync", accept: "*/*" };
  if (prior?.etag) headers["if-none-match"] = prior.etag;
  if (prior?.last_modified) headers["if-modified-since"] = prior.last_modified;
  const timedOut = (): FeedError => new FeedError("feed.timeout", `no complete answer within ${timeoutMs / 1000} s`);
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(def.url, { headers, signal, redirect: "follow" });
  } catch (e) {
    if (signal.aborted) throw timedOut();
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new FeedError("feed.unreachable", `cannot reach ${hostOf(def.url)}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  if (res.status === 304) {
    await res.body?.cancel().catch(() => undefined);
    return { notModified: true };
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new FeedError("feed.http_status", `${hostOf(def.url)} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
  }
  const declared = Number(res.headers.get("content-length") ?? "");
  const tooLarge = (): FeedError => new FeedError("feed.too_large", `larger than max_megabytes (${def.max_megabytes} MB)`);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    }
  } catch (e) {
    if (e instanceof FeedError) throw e;
    if (signal.aborted) throw timedOut();
    throw new FeedError("feed.unreachable", `the answer from ${hostOf(def.url)} broke off: ${(e as Error).message}`);
  }
  const body = Buffer.concat(chunks);
  return {
    notModified: false,
    text: new TextDecoder("utf-8").decode(body),
    sha256: createHash("sha256").update(body).digest("hex"),
    etag: res.headers.get("etag"),
    lastModified: res.headers.get("last-modified"),
    bytes,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
