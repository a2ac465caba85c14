import type { OpenAPIHono } from "@hono/zod-openapi";
import { html, raw } from "hono/html";

/** What the service stores, why, and for how long: served at GET /privacy and kept in docs/privacy.md. */
export const STORED: readonly { what: string; why: string; kept: string }[] = [
  { what: "Account: id, name, plan, role", why: "to know who calls and what they may do", kept: "until the account is deleted" },
  { what: "API keys: SHA-256 hash, first characters, name, plan (never the key itself)", why: "authentication", kept: "until the account is deleted (revoked keys too, for the audit trail)" },
  { what: "Checks: the entity screened, the verdict, the calling key's id, a keyed hash chain", why: "history, export and audit of your own checks", kept: "until the account is deleted" },
  { what: "Asynchronous jobs, webhook secret, endpoints and deliveries", why: "to run asynchronous checks and sign their webhooks", kept: "until the account is deleted" },
  { what: "Usage counters and rate windows per key", why: "plan limits", kept: "the current month and minute; purged with the account" },
  { what: "Relationships learned from your checks (your private graph)", why: "graph proximity in your own verdicts", kept: "until the account is deleted" },
  { what: "Community reports you file, with your account as reporter", why: "evidence about the reported entity, moderated by the operator", kept: "the report stays after deletion, the reporter replaced by an anonymous keyed hash" },
  { what: "Human-review requests and their outcome", why: "to answer your request", kept: "until the account is deleted" },
  { what: "Stripe customer id, subscription status and period", why: "to give you the plan you pay for", kept: "until the account is deleted (Stripe keeps its own records as the payment processor)" },
  { what: "Purchases (the ledger): plan, amount, currency, period, refund", why: "accounting and refunds", kept: "kept after deletion for accounting, linked only to an anonymous keyed hash" },
  { what: "Chat bots: chat settings, counters, the members a bot has seen (id, name, username), in-app payments", why: "to moderate the chats that added the bot", kept: "as long as the bot is in the chat; a chat bound with your API key is unbound when your account is deleted" },
  { what: "Support tickets from the chat bots: what the user wrote after /support (never monitored chat messages), who and which chat, and the operator's answers with their delivery", why: "to answer the user, in the chat the ticket came from", kept: "no automatic expiry yet: kept until the operator removes them from the database" },
  { what: "Request logs: method, path, status, key id, time (never keys or bodies)", why: "operations and abuse handling", kept: "in the operator's log store, per its retention" },
];

export const RETENTION = "An account deletion request (POST /v1/account/deletion) revokes every key at once and purges the account's personal data within 30 days (at once by default). Kept afterwards, anonymised: reports (reporter replaced by a keyed hash), the purchase ledger (account replaced by the same keyed hash), shared intelligence that never named you, and the date of the deletion request.";

/** `GET /privacy`: no key needed. */
export function registerPrivacyRoute(app: OpenAPIHono): void {
  app.get("/privacy", (c) => c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>svc — privacy</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#111}table{border-collapse:collapse;width:100%}th,td{border:1px solid #999;padding:.4rem;text-align:left;vertical-align:top}th{background:#eee}</style></head>
<body><main><h1>Privacy: what svc stores and for how long</h1>
<p>${RETENTION}</p>
<p>A human review of any verdict: <code>POST /v1/checks/{id}/review</code>.</p>
<table><caption>Stored data</caption><thead><tr><th scope="col">What</th><th scope="col">Why</th><th scope="col">How long</th></tr></thead><tbody>
${raw(STORED.map((r) => `<tr><td>${esc(r.what)}</td><td>${esc(r.why)}</td><td>${esc(r.kept)}</td></tr>`).join(""))}
</tbody></table></main></body></html>`));
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
