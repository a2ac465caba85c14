import type { z } from "@hono/zod-openapi";
import type {
  ApiKeyInfo, CreatedKey, CreateKeyRequestBody,
  AuditRecordSchema, AuditVerification, BatchResponseSchema, GraphResponseSchema, HistoryResponseSchema, ProblemBody, ReportAcceptedSchema,
  ReportBody, ReportListBody, ReportRequestBody, ScreenRequestBody, UsageBody, VerdictBody,
  BillingStatusSchema, CheckoutSessionSchema, DeletionRequestSchema, OperatorReviewSchema, PortalSessionSchema, RefundResultSchema, ReviewQueueSchema, ReviewSchema,
  SupportReplyBody, SupportTicketBody, SupportTicketDetailBody, SupportTicketListBody,
} from "@svc/contracts";

export type Verdict = VerdictBody;
export type BatchResponse = z.infer<typeof BatchResponseSchema>;
export type History = z.infer<typeof HistoryResponseSchema>;
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
export type ReportAccepted = z.infer<typeof ReportAcceptedSchema>;
export type Graph = z.infer<typeof GraphResponseSchema>;
export type Usage = UsageBody;
export type { ApiKeyInfo, CreatedKey, CreateKeyRequestBody };
/** A report as the moderation queue shows it. */
export type Report = ReportBody;
export type ReportList = ReportListBody;
export type BillingStatus = z.infer<typeof BillingStatusSchema>;
export type CheckoutSession = z.infer<typeof CheckoutSessionSchema>;
export type PortalSession = z.infer<typeof PortalSessionSchema>;
export type RefundResult = z.infer<typeof RefundResultSchema>;
export type DeletionRequest = z.infer<typeof DeletionRequestSchema>;
export type Review = z.infer<typeof ReviewSchema>;
export type OperatorReview = z.infer<typeof OperatorReviewSchema>;
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;
/** A chat bot's support ticket, as the operator reads it. */
export type SupportTicket = SupportTicketBody;
export type SupportTicketDetail = SupportTicketDetailBody;
export type SupportTicketList = SupportTicketListBody;
export type SupportReply = SupportReplyBody;

/** A problem+json answer from the API, as a typed error. */
export class SvcApiError extends Error {
  override readonly name = "SvcApiError";
  constructor(readonly status: number, readonly problem: ProblemBody) {
    super(`${problem.code}: ${problem.detail}`);
  }
  get code(): string {
    return this.problem.code;
  }
}

/** The server could not be reached at all (refused, DNS, timeout). */
export class SvcUnreachableError extends Error {
  override readonly name = "SvcUnreachableError";
}

export interface ClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /**
   * Retries after 429/503, waiting what Retry-After says (capped by maxRetryDelayMs); an answer
   * asking for more than the retries left could wait in all (a used-up monthly quota) is thrown at once.
   */
  readonly maxRetries?: number;
  readonly maxRetryDelayMs?: number;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

type Query = Record<string, string | number | undefined>;

/** Typed client for every /v1 operation. */
export class SvcClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ClientOptions) {
    let base = options.baseUrl;
    while (base.endsWith("/")) base = base.slice(0, -1);
    this.base = base;
    this.doFetch = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  screen(body: ScreenRequestBody, opts: { idempotencyKey?: string } = {}): Promise<Verdict> {
    return this.json("POST", "/v1/screen", { body, ...opts });
  }
  screenBatch(entities: readonly (string | ScreenRequestBody)[]): Promise<BatchResponse> {
    return this.json("POST", "/v1/screen/batch", { body: { entities } });
  }
  history(query: { limit?: number; cursor?: string; type?: string; risk_level?: string; since?: string; until?: string } = {}): Promise<History> {
    return this.json("GET", "/v1/history", { query });
  }
  /** The key's plan, limits (null = unlimited) and usage; reading it costs nothing. */
  usage(): Promise<Usage> {
    return this.json("GET", "/v1/usage");
  }
  audit(id: string): Promise<AuditRecord> {
    return this.json("GET", `/v1/audit/${encodeURIComponent(id)}`);
  }
  /** Verifies an account's audit chain (operator keys only; the caller's own account by default). */
  verifyAudit(query: { account_id?: string; since?: string; until?: string } = {}): Promise<AuditVerification> {
    return this.json("GET", "/v1/audit/verify", { query });
  }
  /** The CSV export as a stream of bytes (constant memory on both sides). */
  async exportAudit(query: { since?: string; until?: string; type?: string; risk_level?: string } = {}): Promise<ReadableStream<Uint8Array>> {
    const res = await this.request("GET", "/v1/audit/export", { query });
    if (!res.body) throw new SvcUnreachableError("empty export response");
    return res.body;
  }
  report(body: ReportRequestBody, opts: { idempotencyKey?: string } = {}): Promise<ReportAccepted> {
    return this.json("POST", "/v1/report", { body, ...opts });
  }
  /** The moderation queue (operator keys only). */
  reports(query: { status?: "unverified" | "confirmed" | "rejected"; entity?: string; limit?: number; cursor?: string } = {}): Promise<ReportList> {
    return this.json("GET", "/v1/reports", { query });
  }
  /** Confirms a report: it counts in verdicts (operator keys only). */
  confirmReport(id: string, body: { reason?: string } = {}, opts: { idempotencyKey?: string } = {}): Promise<Report> {
    return this.json("POST", `/v1/reports/${encodeURIComponent(id)}/confirm`, { body, ...opts });
  }
  /** Rejects a report with a reason: it never counts (operator keys only). */
  rejectReport(id: string, body: { reason: string }, opts: { idempotencyKey?: string } = {}): Promise<Report> {
    return this.json("POST", `/v1/reports/${encodeURIComponent(id)}/reject`, { body, ...opts });
  }
  /** Support tickets from the chat bots, oldest first (operator keys only). */
  supportTickets(query: { status?: "open" | "answered" | "all"; limit?: number; cursor?: string } = {}): Promise<SupportTicketList> {
    return this.json("GET", "/v1/admin/support/tickets", { query });
  }
  /** One support ticket with its answers and their delivery (operator keys only). */
  supportTicket(id: string): Promise<SupportTicketDetail> {
    return this.json("GET", `/v1/admin/support/tickets/${encodeURIComponent(id)}`);
  }
  /** Answers a ticket; its bot delivers the text to the chat it came from (operator keys only). */
  replySupportTicket(id: string, body: { text: string }, opts: { idempotencyKey?: string } = {}): Promise<SupportReply> {
    return this.json("POST", `/v1/admin/support/tickets/${encodeURIComponent(id)}/reply`, { body, ...opts });
  }
  graph(type: string, value: string, query: { depth?: number; max_nodes?: number; relation?: string } = {}): Promise<Graph> {
    return this.json("GET", `/v1/graph/${encodeURIComponent(type)}/${encodeURIComponent(value)}`, { query });
  }

  /** Creates a key (POST /v1/keys); the key itself is in the answer's `key`, this once. */
  createKey(body: CreateKeyRequestBody = {}): Promise<CreatedKey> {
    return this.json("POST", "/v1/keys", { body });
  }
  /** The account's keys (operator: `accountId` for another account's), revoked ones included. */
  async listKeys(opts: { accountId?: string } = {}): Promise<ApiKeyInfo[]> {
    return (await this.json<{ items: ApiKeyInfo[] }>("GET", "/v1/keys", { query: { account_id: opts.accountId } })).items;
  }
  /** Revokes a key (204); an id not in the account is a 404 SvcApiError `keys.not_found`. */
  async revokeKey(id: string, opts: { accountId?: string } = {}): Promise<void> {
    const res = await this.request("DELETE", `/v1/keys/${encodeURIComponent(id)}`, { query: { account_id: opts.accountId } });
    await res.body?.cancel();
  }

  /** Plan, subscription and purchases (GET /v1/billing). */
  billing(): Promise<BillingStatus> {
    return this.json("GET", "/v1/billing");
  }
  /** A Stripe Checkout session for a plan: send the customer to its `url`. */
  checkout(plan: "starter" | "pro"): Promise<CheckoutSession> {
    return this.json("POST", "/v1/billing/checkout", { body: { plan } });
  }
  /** A Stripe Billing Portal session: change plan, card, or cancel. */
  billingPortal(): Promise<PortalSession> {
    return this.json("POST", "/v1/billing/portal", { body: {} });
  }
  /** Refunds an account's Stripe purchase and ends its subscription (operator keys only). */
  refundPurchase(body: { account_id: string; entitlement_id?: string }): Promise<RefundResult> {
    return this.json("POST", "/v1/billing/refunds", { body });
  }
  /** Deletes the calling key's account: every key stops at once; the data is purged within 30 days. */
  deleteAccount(): Promise<DeletionRequest> {
    return this.json("POST", "/v1/account/deletion", { body: { confirm: true } });
  }
  /** Asks a person to review one of your checks. */
  requestReview(checkId: string, reason: string): Promise<Review> {
    return this.json("POST", `/v1/checks/${encodeURIComponent(checkId)}/review`, { body: { reason } });
  }
  /** The review of one of your checks. */
  review(checkId: string): Promise<Review> {
    return this.json("GET", `/v1/checks/${encodeURIComponent(checkId)}/review`);
  }
  /** The human-review queue (operator keys only). */
  reviews(query: { status?: "pending" | "resolved"; limit?: number; cursor?: string } = {}): Promise<ReviewQueue> {
    return this.json("GET", "/v1/reviews", { query });
  }
  /** Resolves a review (operator keys only); a note is required unless upheld. */
  resolveReview(id: string, body: { outcome: "upheld" | "changed" | "dismissed"; note?: string }): Promise<OperatorReview> {
    return this.json("POST", `/v1/reviews/${encodeURIComponent(id)}/resolve`, { body });
  }

  private async json<T>(method: string, path: string, opts: { body?: unknown; query?: Query; idempotencyKey?: string } = {}): Promise<T> {
    const res = await this.request(method, path, opts);
    return (await res.json()) as T;
  }

  private async request(method: string, path: string, opts: { body?: unknown; query?: Query; idempotencyKey?: string }): Promise<Response> {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { "X-API-Key": this.options.apiKey, accept: "application/json" };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;
    const maxRetries = this.options.maxRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.doFetch(url, {
          method,
          headers,
          ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
      } catch (e) {
        throw new SvcUnreachableError(`cannot reach ${this.base}: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`);
      }
      if (res.ok) return res;
      if ((res.status === 429 || res.status === 503) && attempt < maxRetries) {
        const cap = this.options.maxRetryDelayMs ?? 60_000;
        const asked = res.headers.get("retry-after");
        // A wait longer than every retry left could cover (a used-up month: weeks) is answered now, not retried in vain.
        const hopeless = asked !== null && /^\d+$/.test(asked.trim()) && Number(asked) * 1000 > cap * (maxRetries - attempt);
        if (!hopeless) {
          await res.body?.cancel();
          await this.sleep(retryDelay(asked, attempt, cap));
          continue;
        }
      }
      throw new SvcApiError(res.status, await readProblem(res));
    }
  }
}

/** Retry-After in seconds or as an HTTP date; otherwise exponential back-off. */
export function retryDelay(header: string | null, attempt: number, cap: number): number {
  let ms = 500 * 2 ** attempt;
  if (header) {
    const secs = Number(header);
    if (Number.isFinite(secs)) ms = secs * 1000;
    else {
      const at = Date.parse(header);
      if (Number.isFinite(at)) ms = at - Date.now();
    }
  }
  return Math.max(0, Math.min(cap, ms));
}

async function readProblem(res: Response): Promise<ProblemBody> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as Partial<ProblemBody>;
    if (typeof body.code === "string") return body as ProblemBody;
  } catch {
    /* not JSON: describe it below */
  }
  return { type: "about:blank", title: res.statusText || "HTTP error", status: res.status, detail: text.slice(0, 500) || `HTTP ${res.status}`, code: `http.${res.status}`, request_id: res.headers.get("x-request-id") ?? "unknown", retryable: res.status >= 500 };
}
