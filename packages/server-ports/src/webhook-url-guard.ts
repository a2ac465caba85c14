export type WebhookUrlProblem = "webhook.url_invalid" | "webhook.url_forbidden" | "webhook.url_unresolvable";

export type WebhookUrlCheck =
  /** `url` is the normalised form to store and call. */
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly code: WebhookUrlProblem; readonly message: string };

/**
 * Server-side request forgery guard for webhook URLs: http(s) only, no credentials, and every
 * address the host resolves to must be public unicast unless an allowed range lists it. The
 * same rule is applied again to the address actually connected at every delivery.
 */
export interface WebhookUrlGuard {
  check(url: string): Promise<WebhookUrlCheck>;
}
