/**
 * WhatsApp offline (reference/chat-bots.md §4): a fake Graph API on 127.0.0.1 speaking the Cloud
 * API's request and response shapes (errors included), the bot's real webhook served on
 * 127.0.0.1, and builders for signed deliveries. Used by the tests and the benchmark only.
 */
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { InMemoryScreening, ManualClock, type PlanResolver, type ScreeningPort } from "@svc/bot-kernel";
import { everyRowAsText, openDataSource, scratchDatabase, type ScratchDatabase } from "@svc/persistence";
import type { DataSource } from "typeorm";
import { Writable } from "node:stream";
import { parseConfig, type WhatsAppConfig } from "./config.js";
import { buildRuntime, type WhatsAppRuntime } from "./container.js";

export const TOKEN = "EAAtesttoken0123456789abcdef";
export const APP_SECRET = "0123456789abcdef0123456789abcdef";
export const VERIFY_TOKEN = "verify-token-for-tests";
export const PHONE_NUMBER_ID = "106540352242922";
export const BOOTSTRAP_SECRET = "w".repeat(40);

export interface GraphRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown> | null;
}

export interface GraphFailure {
  readonly code: number;
  readonly status?: number;
  readonly message?: string;
  readonly details?: string;
}

/** The Graph API as the Cloud API answers `POST /{version}/{phone-number-id}/messages`. */
export class FakeGraphApi {
  readonly requests: GraphRequest[] = [];
  private readonly failures: GraphFailure[] = [];
  private seq = 0;
  /** Answer nothing at all to this many requests (the connection is dropped): a network failure. */
  dropNext = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(token = TOKEN): Promise<FakeGraphApi> {
    let self: FakeGraphApi | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => (self as FakeGraphApi).answer(req.method ?? "", req.url ?? "", req.headers.authorization, Buffer.concat(chunks).toString("utf8"), res, token));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    self = new FakeGraphApi(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** The next send is refused with this Cloud API error. */
  failNext(f: GraphFailure): void {
    this.failures.push(f);
  }

  /** Messages accepted for sending: recipient, text and the message replied to. */
  sent(): { readonly to: string; readonly recipientType: string; readonly text: string; readonly replyTo: string | null }[] {
    return this.requests
      .filter((r) => r.body && r.path.endsWith("/messages") && (r as { accepted?: boolean }).accepted)
      .map((r) => {
        const b = r.body as { to: string; recipient_type: string; text?: { body?: string }; context?: { message_id?: string } };
        return { to: b.to, recipientType: b.recipient_type, text: b.text?.body ?? "", replyTo: b.context?.message_id ?? null };
      });
  }

  private answer(method: string, path: string, authorization: string | undefined, raw: string, res: import("node:http").ServerResponse, token: string): void {
    if (this.dropNext > 0) {
      this.dropNext--;
      res.socket?.destroy();
      return;
    }
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      body = null;
    }
    const entry: GraphRequest & { accepted?: boolean } = { method, path, authorization, body };
    this.requests.push(entry);
    const json = (status: number, payload: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    const error = (status: number, code: number, message: string, details: string): void =>
      json(status, { error: { message, type: "OAuthException", code, error_data: { messaging_product: "whatsapp", details }, fbtrace_id: `Atrace${++this.seq}` } });
    if (authorization !== `Bearer ${token}`) return error(401, 190, "Invalid OAuth access token - Cannot parse access token", "Invalid OAuth access token");
    if (method !== "POST" || !/^\/v\d+\.\d\/\d+\/messages$/u.test(path)) return error(400, 100, "Unsupported post request.", "Unknown path");
    const b = body as { messaging_product?: string; to?: string; type?: string; recipient_type?: string; text?: { body?: string } } | null;
    if (!b || b.messaging_product !== "whatsapp" || !b.to || b.type !== "text" || typeof b.text?.body !== "string") {
      return error(400, 100, "(#100) Invalid parameter", "Parameter messaging_product, to, type and text are required");
    }
    if (b.text.body.length > 4096) return error(400, 100, "(#100) Invalid parameter", "Param text['body'] must be at most 4096 characters long.");
    const f = this.failures.shift();
    if (f) return error(f.status ?? 400, f.code, f.message ?? `(#${f.code}) Error`, f.details ?? "Refused by the fake Graph API");
    entry.accepted = true;
    const id = `wamid.OUT${++this.seq}`;
    if (b.recipient_type === "group") return json(200, { messaging_product: "whatsapp", messages: [{ id }] });
    return json(200, { messaging_product: "whatsapp", contacts: [{ input: b.to, wa_id: b.to }], messages: [{ id }] });
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

// ------------------------------------------------------------------ deliveries

export interface TextIn {
  readonly id: string;
  readonly from: string;
  readonly name?: string;
  readonly groupId?: string;
  readonly body: string;
}

/** A `messages` change as Meta delivers it, with one or more text messages. */
export function messagesDelivery(messages: readonly TextIn[], phoneNumberId = PHONE_NUMBER_ID): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
              contacts: messages.map((m) => ({ profile: { name: m.name ?? "Someone" }, wa_id: m.from })),
              messages: messages.map((m) => ({
                from: m.from,
                id: m.id,
                timestamp: "1772442000",
                type: "text",
                text: { body: m.body },
                ...(m.groupId ? { group_id: m.groupId } : {}),
              })),
            },
          },
        ],
      },
    ],
  };
}

export function statusDelivery(statuses: readonly Record<string, unknown>[]): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [{ id: "102290129340398", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550783881", phone_number_id: PHONE_NUMBER_ID }, statuses } }] }],
  };
}

/**
 * `X-Hub-Signature-256` as Meta computes it: HMAC-SHA256 with the app secret over the payload
 * with non-ASCII characters escaped as lower-case `\\uXXXX` (developers.facebook.com/docs/
 * messenger-platform/webhooks#validate-payloads), whatever bytes the body travels as.
 */
export function sign(body: string, secret = APP_SECRET): string {
  // eslint-disable-next-line no-control-regex -- every code unit above ASCII, surrogate halves included
  const escaped = body.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `sha256=${createHmac("sha256", secret).update(escaped).digest("hex")}`;
}

// ------------------------------------------------------------------ the bot on 127.0.0.1

export interface Harness {
  readonly graph: FakeGraphApi;
  readonly runtime: WhatsAppRuntime;
  readonly clock: ManualClock;
  readonly screening: InMemoryScreening;
  readonly webhookUrl: string;
  readonly logs: Record<string, unknown>[];
  /** Retries the sender scheduled, to run by hand. */
  readonly retries: (() => void)[];
  /** POSTs a body to the webhook, signed unless a signature is given. */
  post(body: string, signature?: string | null, headers?: Record<string, string>): Promise<Response>;
  deliver(payload: unknown): Promise<Response>;
  /** Every row of every table, as text (privacy scans). */
  dump(): Promise<string>;
  close(): Promise<void>;
}

export type Engine = "pglite" | "postgres";
export const ENGINES: readonly Engine[] = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

export interface HarnessOptions {
  readonly engine?: Engine;
  readonly plans?: PlanResolver;
  readonly env?: Record<string, string>;
  readonly screening?: ScreeningPort;
  /** A migrated database to use (the caller empties and closes it) instead of a new one. */
  readonly dataSource?: DataSource;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const graph = await FakeGraphApi.start();
  const pg: ScratchDatabase | null = !opts.dataSource && opts.engine === "postgres" ? await scratchDatabase(process.env.TEST_DATABASE_URL as string, "svc_wa") : null;
  const dataSource: DataSource = opts.dataSource ?? (await openDataSource(pg ? { url: pg.url } : { dataDir: "memory://" }));
  const config: WhatsAppConfig = parseConfig({
    WHATSAPP_ACCESS_TOKEN: TOKEN,
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_GRAPH_URL: graph.url,
    SVC_DATA_DIR: "memory://",
    SVC_BOOTSTRAP_KEY: BOOTSTRAP_SECRET,
    LOG_LEVEL: "debug",
    ...opts.env,
  });
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const screening = new InMemoryScreening()
    .set("paypa1.com", "critical", "Looks like paypal.com (one character replaced: l → 1)")
    .set("claim-airdrop.top", "high", "Suspicious top-level domain and airdrop keyword")
    .set("docs.python.org", "low");
  const logs: Record<string, unknown>[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _e, cb) {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  const retries: (() => void)[] = [];
  const runtime = await buildRuntime(config, {
    screening: opts.screening ?? screening,
    clock,
    dataSource,
    logDestination,
    schedule: (_ms, run) => void retries.push(run),
    retryDelaysMs: [1000, 5000],
    ...(opts.plans ? { plans: opts.plans } : {}),
  });
  const server: ServerType = serve({ fetch: runtime.web.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((r) => (server.listening ? r() : server.once("listening", () => r())));
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${config.WHATSAPP_WEBHOOK_PATH}`;
  const post = (body: string, signature: string | null = sign(body), headers: Record<string, string> = {}): Promise<Response> =>
    fetch(webhookUrl, { method: "POST", body, headers: { "content-type": "application/json", ...(signature !== null ? { "x-hub-signature-256": signature } : {}), ...headers } });
  return {
    graph,
    runtime,
    clock,
    screening,
    webhookUrl,
    logs,
    retries,
    post,
    deliver: (payload) => post(JSON.stringify(payload)),
    dump: async () => {
      // Counters wait in memory for up to a second: write them, so the dump holds everything the bot keeps.
      await runtime.app.kernel.flush();
      return everyRowAsText(dataSource);
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await graph.close();
      await runtime.close();
      if (!opts.dataSource) await dataSource.destroy();
      await pg?.drop();
    },
  };
}
