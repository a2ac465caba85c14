import type { CheckRepository, Clock, GraphRepository, IdGenerator, NewGraphEdge, NewGraphNode, ReportRepository, ScreeningDeps } from "@svc/core";
import type { AccountRepository, ApiKeyRepository, IdempotencyStore, RateLimiter, UsageCounter } from "@svc/server-ports";
import type { AsyncJobStore, WebhookSecretStore, WebhookUrlGuard } from "@svc/server-ports";
import type { Logger } from "pino";
import type { SupportInbox } from "@svc/bot-kernel";
import type { DiskSpace, TypeOrmAccountDeletions, TypeOrmCheckReviews } from "@svc/persistence";
import type { StripeBilling } from "./billing/stripe-billing.js";
import type { PlanCatalog } from "@svc/runtime";
import type { WebServices } from "./web/session.js";

/** What the HTTP layer needs; built by the composition root (container.ts) or by tests. */
export interface ApiServices {
  readonly screening: ScreeningDeps;
  readonly accounts: AccountRepository;
  readonly keys: ApiKeyRepository;
  readonly checks: CheckRepository;
  /** Monthly quotas (calendar months, UTC). */
  readonly usage: UsageCounter;
  /** Per-minute rate limits (a sliding 60-second window per key). */
  readonly rates: RateLimiter;
  /** The configured plans (SVC_PLANS over the defaults; plans.ts). */
  readonly plans: PlanCatalog;
  readonly idempotency: IdempotencyStore;
  readonly reports: ReportRepository;
  readonly graph: GraphRepository;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** True when the database answers. */
  readonly ready: () => Promise<boolean>;
  readonly bodyLimitBytes: number;
  /** Embedded mode: free space on the data directory; writes are refused while it is short. */
  readonly diskSpace?: DiskSpace;
  /** Work done after the response (graph learning); drained on shutdown and by tests. */
  readonly background: BackgroundTasks;
  /** Writes what checks teach the graph, grouped across concurrent checks. */
  readonly graphLearner: { learn(nodes: readonly NewGraphNode[], edges: readonly NewGraphEdge[]): Promise<void> };
  /** Asynchronous checks and their webhooks (routes/async.ts). */
  readonly async: AsyncServices;
  /** Signs history cursors (HMAC); from the database, so every replica and restart agrees. */
  readonly cursorKey: Uint8Array;
  /** Stripe billing; null when the server sells no plans (no SVC_STRIPE_SECRET_KEY). */
  readonly billing: StripeBilling | null;
  /** Where Checkout and the portal send the customer back (default: the request's origin). */
  readonly billingReturnUrl?: string;
  /** Account deletion and human review. */
  readonly dataHandling: DataHandlingServices;
  /** Dashboard sign-in: accounts, sessions, e-mail and social providers (web/). */
  readonly web: WebServices;
  /** The chat bots' support tickets, read and answered by the operator (routes/support.ts). */
  readonly support: SupportInbox;
}

export interface DataHandlingServices {
  readonly deletions: TypeOrmAccountDeletions;
  readonly reviews: TypeOrmCheckReviews;
  /** SVC_DELETION_DELAY_DAYS. */
  readonly deletionDelayDays: number;
  /** Queues the purge of deletion request `id` to run at `at`. */
  schedulePurge(id: string, at: Date): Promise<void>;
}

export interface AsyncServices {
  readonly jobs: AsyncJobStore;
  readonly webhookSecrets: WebhookSecretStore;
  readonly webhookUrls: WebhookUrlGuard;
}

export class BackgroundTasks {
  private readonly pending = new Set<Promise<unknown>>();
  track(p: Promise<unknown>): void {
    const tracked = p.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
