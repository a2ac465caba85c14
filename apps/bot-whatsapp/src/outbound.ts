import type { Logger } from "pino";
import type { WhatsAppAPI } from "whatsapp-api-js";
import { Text } from "whatsapp-api-js/messages";

/** Where a message goes: a phone number (wa_id) or a group. */
export type Recipient = { readonly phone: string } | { readonly group: string };

/**
 * Cloud API error codes (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes)
 * by what the bot does about them. Rate limits and temporary failures are retried later;
 * the 24-hour customer-service window and unreachable recipients are logged and dropped, as
 * retrying cannot help; anything else is logged and dropped too. Nothing here throws.
 */
const RETRY = new Set([
  1, // API unknown (temporary)
  2, // API service (temporary)
  4, // application request limit reached
  80007, // WhatsApp Business Account rate limit
  130429, // throughput rate limit hit
  131000, // something went wrong
  131016, // service unavailable
  131056, // too many messages to one recipient (pair rate limit)
]);
const OUTSIDE_WINDOW = 131047; // more than 24 hours since the user last wrote: free text refused
const UNREACHABLE = new Set([131026, 131030, 131021, 131051]); // undeliverable, not on the allowed list, sender = recipient, unsupported type

export type SendOutcome =
  | { readonly ok: true; readonly id: string | null }
  | { readonly ok: false; readonly code: number | null; readonly outcome: "retry scheduled" | "dropped" };

export type Scheduler = (ms: number, run: () => void) => void;

const defaultScheduler: Scheduler = (ms, run) => {
  setTimeout(run, ms).unref();
};

export interface SenderOptions {
  readonly api: WhatsAppAPI;
  readonly phoneNumberId: string;
  readonly log: Logger;
  /** Waits before each retry of a rate-limited or temporarily failed send; its length is the retry count. */
  readonly retryDelaysMs?: readonly number[];
  /** Runs a retry later (tests drive it by hand). */
  readonly schedule?: Scheduler;
}

interface GraphError {
  readonly error: { readonly code?: number; readonly message?: string; readonly error_data?: { readonly details?: string } };
}

const isGraphError = (r: unknown): r is GraphError => typeof r === "object" && r !== null && "error" in r && typeof (r as GraphError).error === "object";

/** Outbound text through whatsapp-api-js, with the Cloud API's refusals handled politely. */
export class WhatsAppSender {
  private readonly delays: readonly number[];
  private readonly schedule: Scheduler;
  /** Sends waiting for a retry, for shutdown and tests. */
  pendingRetries = 0;

  constructor(private readonly o: SenderOptions) {
    this.delays = o.retryDelaysMs ?? [2_000, 10_000, 60_000];
    this.schedule = o.schedule ?? defaultScheduler;
  }

  send(to: Recipient, body: string, replyTo?: string): Promise<SendOutcome> {
    return this.attempt(to, body, replyTo, 0);
  }

  private async attempt(to: Recipient, body: string, replyTo: string | undefined, tries: number): Promise<SendOutcome> {
    let code: number | null = null;
    let detail: string;
    try {
      const message = new Text(body, false);
      const r: unknown = "group" in to ? await this.o.api.sendMessage(this.o.phoneNumberId, { group: to.group }, message, replyTo) : await this.o.api.sendMessage(this.o.phoneNumberId, to.phone, message, replyTo);
      if (!isGraphError(r)) {
        const id = (r as { messages?: { id?: string }[] }).messages?.[0]?.id ?? null;
        return { ok: true, id };
      }
      code = typeof r.error.code === "number" ? r.error.code : null;
      detail = r.error.error_data?.details ?? r.error.message ?? "unknown error";
    } catch (e) {
      // The network, or a body that is not JSON (a proxy's error page): worth another try.
      code = null;
      detail = e instanceof Error ? e.message : String(e);
    }
    const retryable = code === null || RETRY.has(code);
    const wait = this.delays[tries];
    const ctx = { code, detail: detail.slice(0, 300), recipient: "group" in to ? "group" : "individual", attempt: tries + 1 };
    if (retryable && wait !== undefined) {
      this.o.log.warn(ctx, "whatsapp send refused for now; retrying later");
      this.pendingRetries++;
      this.schedule(wait, () => {
        this.pendingRetries--;
        void this.attempt(to, body, replyTo, tries + 1);
      });
      return { ok: false, code, outcome: "retry scheduled" };
    }
    if (code === OUTSIDE_WINDOW) this.o.log.info(ctx, "whatsapp reply dropped: the user has not written in the last 24 hours");
    else if (code !== null && UNREACHABLE.has(code)) this.o.log.info(ctx, "whatsapp reply dropped: recipient cannot receive it");
    else this.o.log.error(ctx, retryable ? "whatsapp send failed after retries; dropped" : "whatsapp send failed; dropped");
    return { ok: false, code, outcome: "dropped" };
  }
}
