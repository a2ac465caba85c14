import type { App } from "@slack/bolt";
import { verifySlackRequest } from "@slack/bolt";
import type { Clock } from "@svc/bot-kernel";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { OAuthFlow } from "./oauth.js";

/** Slack's own replay window (v0 signing): five minutes either way. */
export const REPLAY_WINDOW_SECONDS = 300;
/** Slack payloads are a few KB; this leaves room for big messages and rejects the rest unread. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
/** Signatures remembered for replay detection at most (about 20 MB); beyond it the oldest go first. */
const MAX_REMEMBERED_SIGNATURES = 200_000;
/** Slack waits 3 s for an answer, then retries (events) or shows a timeout (commands). */
const DEFAULT_ACK_TIMEOUT_MS = 2500;

export interface SlackHttpDeps {
  readonly bolt: App;
  readonly signingSecret: string;
  readonly clock: Clock;
  /** Records an Events API delivery id; false when it was handled before (Slack's retry of it). */
  readonly firstReceipt: (eventId: string) => Promise<boolean>;
  readonly oauth?: OAuthFlow;
  readonly maxBodyBytes?: number;
  readonly ackTimeoutMs?: number;
  readonly onError?: (e: unknown) => void;
  readonly eventsPath?: string;
  /**
   * Whether the workspace has an installation. A slash command from one that has none (never
   * installed, or uninstalled) gets a short ephemeral reply with the install address instead of
   * reaching Bolt, whose authorize step would fail.
   */
  readonly isInstalled?: (teamId: string) => Promise<boolean>;
  /** The public address of the install route; by default this server's origin + `/slack/install`. */
  readonly installUrl?: string;
}

export interface SlackHttp {
  readonly app: Hono;
  /** Resolves when no request is being processed (tests; shutdown). */
  idle(): Promise<void>;
}

const problem = (code: string, detail: string) => ({ error: code, detail });

/**
 * The one HTTP front for Slack: Events API, slash commands and interactivity on one signed
 * endpoint, plus the OAuth install routes. Order per request: size limit (413), signature and
 * timestamp (401, nothing read further), replay of a signature already seen (401), parse (400),
 * then Bolt's `processEvent`. A forged, stale or replayed request never reaches Bolt.
 */
export function createSlackHttp(deps: SlackHttpDeps): SlackHttp {
  const app = new Hono();
  const report = deps.onError ?? ((e: unknown) => console.error("slack request failed", e));
  const inFlight = new Set<Promise<unknown>>();
  /** Signatures seen within the window: a byte-identical request is a replay. */
  const seen = new Map<string, number>();
  const ackTimeout = deps.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  const within = <T>(p: Promise<T>): Promise<T | "timeout"> => {
    let timer: NodeJS.Timeout | undefined;
    const t = new Promise<"timeout">((res) => {
      timer = setTimeout(() => res("timeout"), ackTimeout);
      timer.unref();
    });
    return Promise.race([p, t]).finally(() => clearTimeout(timer));
  };

  app.get("/healthz", (c) => c.json({ ok: true }));
  if (deps.oauth) deps.oauth.mount(app);

  app.post(
    deps.eventsPath ?? "/slack/events",
    bodyLimit({
      maxSize: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      onError: (c) => {
        // The rest of the body is not read: close the connection rather than leave it unread on a kept-alive socket.
        c.header("Connection", "close");
        return c.json(problem("payload_too_large", "The request body is too large."), 413);
      },
    }),
    async (c) => {
      const raw = await c.req.text();
      const tsHeader = c.req.header("x-slack-request-timestamp") ?? "";
      const signature = c.req.header("x-slack-signature") ?? "";
      const nowMs = deps.clock.now().getTime();
      const ts = /^\d{1,12}$/u.test(tsHeader) ? Number(tsHeader) : Number.NaN;
      if (!signature || Number.isNaN(ts) || Math.abs(nowMs / 1000 - ts) > REPLAY_WINDOW_SECONDS) {
        return c.json(problem("invalid_signature", "Missing, stale or future request timestamp or signature."), 401);
      }
      try {
        verifySlackRequest({ signingSecret: deps.signingSecret, body: raw, headers: { "x-slack-signature": signature, "x-slack-request-timestamp": ts }, nowMilliseconds: nowMs });
      } catch {
        return c.json(problem("invalid_signature", "The request signature does not match."), 401);
      }
      const retryHeader = c.req.header("x-slack-retry-num");
      const retryNum = retryHeader !== undefined && /^\d{1,3}$/u.test(retryHeader) ? Number(retryHeader) : undefined;
      for (const [sig, until] of seen) {
        if (until > nowMs) break;
        seen.delete(sig);
      }
      // A retry may carry the signature of its first delivery; it is deduplicated by event id below.
      if (seen.has(signature) && retryNum === undefined) return c.json(problem("replayed", "This request was already received."), 401);
      seen.set(signature, nowMs + REPLAY_WINDOW_SECONDS * 1000);
      if (seen.size > MAX_REMEMBERED_SIGNATURES) seen.delete(seen.keys().next().value as string);

      let body: Record<string, unknown>;
      try {
        body = parseBody(raw, c.req.header("content-type") ?? "");
      } catch (e) {
        return c.json(problem("malformed_body", e instanceof Error ? e.message : "The body could not be parsed."), 400);
      }

      if (body.type === "url_verification") return c.json({ challenge: typeof body.challenge === "string" ? body.challenge : "" });
      if (body.type === "ssl_check" || body.type === "app_rate_limited") return c.body(null, 200);

      if (body.type === "event_callback") {
        const eventId = body.event_id;
        const event = body.event as { type?: unknown } | undefined;
        if (typeof eventId !== "string" || eventId.length === 0 || eventId.length > 128 || typeof event !== "object" || event === null || typeof event.type !== "string") {
          return c.json(problem("invalid_event", "An event_callback needs event_id and event.type."), 400);
        }
        // Processed once: a delivery id already handled is acknowledged and dropped.
        if (!(await deps.firstReceipt(eventId))) return c.body(null, 200);
        const done = track(deps.bolt.processEvent({ body, ack: async () => {}, ...(retryNum !== undefined ? { retryNum, retryReason: c.req.header("x-slack-retry-reason") ?? "" } : {}) }).catch(report));
        await within(done);
        return c.body(null, 200);
      }

      if (typeof body.command === "string" && deps.isInstalled) {
        const teamId = typeof body.team_id === "string" ? body.team_id : "";
        if (!teamId || !(await deps.isInstalled(teamId))) {
          const url = deps.installUrl ?? `${new URL(c.req.url).origin}/slack/install`;
          return c.json({ response_type: "ephemeral", text: `svc is not installed in this workspace; install it at ${url}` });
        }
      }

      // Slash commands and interactivity: the answer is whatever the listener acknowledged with.
      let acked: (v: unknown) => void = () => {};
      const ackBody = new Promise<unknown>((res) => {
        acked = res;
      });
      const done = track(
        deps.bolt
          .processEvent({ body, ack: async (r?: unknown) => acked(r) })
          .catch(report)
          .then(() => acked(undefined)),
      );
      const answer = await within(Promise.race([ackBody, done.then(() => undefined)]));
      if (answer === undefined || answer === "timeout") return c.body(null, 200);
      return typeof answer === "string" ? c.text(answer) : c.json(answer as object);
    },
  );

  return {
    app,
    idle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** JSON (Events API) or form-encoded (commands; interactivity wraps JSON in `payload`). */
export function parseBody(raw: string, contentType: string): Record<string, unknown> {
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(raw);
    const payload = form.get("payload");
    if (payload !== null) return asObject(JSON.parse(payload));
    return Object.fromEntries(form);
  }
  if (contentType.startsWith("application/json")) return asObject(JSON.parse(raw));
  throw new Error(`Unsupported content type: ${contentType || "(none)"}`);
}

function asObject(v: unknown): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("The body must be a JSON object.");
  return v as Record<string, unknown>;
}
