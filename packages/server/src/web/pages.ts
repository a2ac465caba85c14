import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { Account, WebUser } from "@svc/server-ports";
import type { OAuthProvider } from "./oauth.js";

/** Server-rendered pages of the dashboard. Every interpolated value is HTML-escaped by `html`. */
type Html = HtmlEscapedString;
const h = (strings: TemplateStringsArray, ...values: unknown[]): Html => html(strings, ...values) as Html;

export function layout(title: string, body: Html, options: { user?: WebUser } = {}): Html {
  return h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · svc</title>
<link rel="icon" href="/web/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/web/app.css">
<script src="/web/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/">svc</a>
  ${options.user ? h`<nav aria-label="Account"><span class="who">${options.user.email}</span>
  <form method="post" action="/auth/logout"><button type="submit" class="link">Sign out</button></form></nav>` : ""}
</header>
<main id="main">
${body}
</main>
<footer><p>Automated risk indicators for information only; not legal, financial or investment advice. <a href="/docs">API reference</a> · <a href="/v1/openapi.json">OpenAPI</a></p></footer>
</body>
</html>`;
}

export function signInPage(o: { mode: "login" | "signup"; error?: string; providers: readonly OAuthProvider[] }): Html {
  const error = o.error ? h`<p class="error" role="alert" id="form-error">${o.error}</p>` : "";
  return layout(o.mode === "signup" ? "Create an account" : "Sign in", h`
<h1>Entity risk screening</h1>
<p>Screen domains, URLs, wallets, e-mail and IP addresses, phone numbers and social accounts, and read why.</p>
${error}
<div class="cards">
<section class="card" aria-labelledby="login-h">
  <h2 id="login-h">Sign in</h2>
  <form method="post" action="/auth/login" data-testid="login-form">
    <label for="login-email">E-mail address</label>
    <input id="login-email" name="email" type="email" autocomplete="username" required>
    <label for="login-password">Password</label>
    <input id="login-password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Sign in</button>
  </form>
  <details><summary>Forgot your password?</summary>
  <form method="post" action="/auth/password/forgot">
    <label for="forgot-email">E-mail address</label>
    <input id="forgot-email" name="email" type="email" autocomplete="username" required>
    <button type="submit" class="secondary">Send a reset link</button>
  </form></details>
  ${o.providers.length > 0 ? h`<p class="or">or</p>${o.providers.map((p) => h`<a class="button secondary" href="/auth/oauth/${p.name}">Sign in with ${p.label}</a> `)}` : ""}
</section>
<section class="card" aria-labelledby="signup-h">
  <h2 id="signup-h">Create an account</h2>
  <p>Free plan; no card needed.</p>
  <form method="post" action="/auth/signup" data-testid="signup-form">
    <label for="signup-email">E-mail address</label>
    <input id="signup-email" name="email" type="email" autocomplete="email" required>
    <label for="signup-password">Password <span class="hint">(at least 10 characters)</span></label>
    <input id="signup-password" name="password" type="password" autocomplete="new-password" minlength="10" required>
    <button type="submit">Create account</button>
  </form>
</section>
</div>`);
}

export function messagePage(title: string, text: string, link?: { href: string; label: string }): Html {
  return layout(title, h`<h1>${title}</h1><p>${text}</p>${link ? h`<p><a class="button" href="${link.href}">${link.label}</a></p>` : ""}`);
}

export function resetPage(token: string): Html {
  return layout("Choose a new password", h`<h1>Choose a new password</h1>
<form method="post" action="/auth/password/reset" class="card">
  <input type="hidden" name="token" value="${token}">
  <label for="reset-password">New password <span class="hint">(at least 10 characters)</span></label>
  <input id="reset-password" name="password" type="password" autocomplete="new-password" minlength="10" required>
  <button type="submit">Save and sign in</button>
</form>`);
}

const TYPES = ["domain", "url", "wallet", "email", "ip", "phone", "social"];
const LEVELS = ["low", "medium", "high", "critical"];

/** What the dashboard shows of billing: null when the server sells no plans (Stripe not configured). */
export interface BillingView {
  /** The account's Stripe customer, once it has started a checkout. */
  readonly customer: boolean;
  readonly subscription: { readonly status: string | null; readonly plan: string | null; readonly cancelAtPeriodEnd: boolean; readonly currentPeriodEnd: string | null } | null;
  /** Back from Stripe Checkout (`?checkout=success` / `canceled` on the return address). */
  readonly returned?: "success" | "canceled";
}

const SUBSCRIBED = new Set(["active", "trialing", "past_due"]);
const PLAN_LABEL: Record<string, string> = { starter: "Starter ($29 a month)", pro: "Pro ($99 a month)" };

/** The plan section's billing controls: upgrade (Checkout), manage (Billing Portal), and the subscription's state. */
export function billingSlot(account: Account, billing: BillingView | null): Html {
  if (!billing) return h`<p data-testid="billing">Billing is not set up on this server: plans are changed by the operator.</p>`;
  if (account.role === "operator") return h`<p data-testid="billing">The operator's account has no limits and buys no plan.</p>`;
  const sub = billing.subscription;
  const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "the end of the period");
  const subscribed = sub !== null && sub.status !== null && SUBSCRIBED.has(sub.status);
  const state = subscribed
    ? h`<p data-testid="subscription">Subscription: <strong>${sub!.plan ?? account.plan}</strong>${sub!.status === "past_due" ? " (payment overdue; Stripe is retrying)" : ""}. ${sub!.cancelAtPeriodEnd
      ? h`Cancelled: it ends on <time datetime="${sub!.currentPeriodEnd ?? ""}">${day(sub!.currentPeriodEnd)}</time>, then the plan goes back to free.`
      : h`Renews on <time datetime="${sub!.currentPeriodEnd ?? ""}">${day(sub!.currentPeriodEnd)}</time>.`}</p>`
    : h`<p data-testid="subscription">No subscription.</p>`;
  const upgrade = subscribed ? "" : h`<div class="row">${(["starter", "pro"] as const).map((p) => h`<button type="button" data-action="checkout" data-plan="${p}">Upgrade to ${PLAN_LABEL[p]}</button> `)}</div>`;
  const manage = billing.customer ? h`<button type="button" class="secondary" data-action="portal">Manage billing</button>` : "";
  const back = billing.returned === "success"
    ? h`<p class="notice" role="status">Thank you: the plan changes as soon as Stripe confirms the payment (reload in a moment).</p>`
    : billing.returned === "canceled" ? h`<p class="notice" role="status">Checkout was cancelled; nothing was charged.</p>` : "";
  return h`<div data-testid="billing">${back}${state}${upgrade}${manage}<div id="billing-result" aria-live="polite"></div></div>`;
}

export function dashboardPage(user: WebUser, account: Account, extras: { deletionRoute: boolean; billing?: BillingView | null }): Html {
  return layout("Dashboard", h`
<h1>Dashboard</h1>
${user.email_verified_at ? "" : h`<p class="notice" role="status">Please confirm your e-mail address: we sent you a link. <button type="button" class="link" data-action="resend">Send it again</button></p>`}
<nav class="tabs" aria-label="Sections">
  <a href="#screen">Screen</a> <a href="#history">History</a> <a href="#graph">Graph</a> <a href="#keys">API keys</a> <a href="#webhooks">Webhooks</a> <a href="#plan">Plan and usage</a> <a href="#account">Account</a>
</nav>

<section id="screen" class="card" aria-labelledby="screen-h">
  <h2 id="screen-h">Screen an entity</h2>
  <form id="screen-form">
    <label for="screen-value">Domain, URL, wallet, e-mail, IP, phone or social account</label>
    <input id="screen-value" name="entity_value" required maxlength="2048" autocomplete="off" spellcheck="false">
    <label for="screen-type">Type</label>
    <select id="screen-type" name="type"><option value="">Detect automatically</option>${TYPES.map((t) => h`<option>${t}</option>`)}</select>
    <button type="submit">Screen</button>
  </form>
  <div id="verdict" aria-live="polite"></div>
</section>

<section id="history" class="card" aria-labelledby="history-h">
  <h2 id="history-h">History</h2>
  <form id="history-form" class="row">
    <div><label for="history-type">Type</label>
    <select id="history-type" name="type"><option value="">All types</option>${TYPES.map((t) => h`<option>${t}</option>`)}</select></div>
    <div><label for="history-level">Risk level</label>
    <select id="history-level" name="risk_level"><option value="">All levels</option>${LEVELS.map((l) => h`<option>${l}</option>`)}</select></div>
    <div><label for="history-since">Since</label><input id="history-since" name="since" type="date"></div>
    <div class="actions"><button type="submit">Filter</button>
    <a id="export-link" class="button secondary" href="/v1/audit/export" download>Export CSV</a></div>
  </form>
  <div id="history-table" aria-live="polite"></div>
</section>

<section id="graph" class="card" aria-labelledby="graph-h">
  <h2 id="graph-h">Relationship graph</h2>
  <form method="get" action="/graph" class="row">
    <div><label for="graph-type">Type</label>
    <select id="graph-type" name="type">${TYPES.map((t) => h`<option>${t}</option>`)}</select></div>
    <div class="grow"><label for="graph-value">Entity</label><input id="graph-value" name="value" required autocomplete="off" spellcheck="false"></div>
    <div class="actions"><button type="submit">Show graph</button></div>
  </form>
</section>

<section id="keys" class="card" aria-labelledby="keys-h">
  <h2 id="keys-h">API keys</h2>
  <p>Programs call the API with a key. A new key is shown once: copy it then.</p>
  <form id="key-form" class="row">
    <div class="grow"><label for="key-name">Name</label><input id="key-name" name="name" maxlength="64" placeholder="e.g. ci" required></div>
    <div class="actions"><button type="submit">Create key</button></div>
  </form>
  <div id="new-key" aria-live="polite"></div>
  <div id="key-list"></div>
</section>

<section id="webhooks" class="card" aria-labelledby="webhooks-h">
  <h2 id="webhooks-h">Webhook signing secret</h2>
  <p>Asynchronous checks sign their webhooks with this secret (<a href="/docs">see the reference</a>). After a rotation the old secret keeps signing for 24 hours.</p>
  <div id="webhook-secret"><button type="button" class="secondary" data-action="show-secret">Show secret</button></div>
  <button type="button" class="secondary" data-action="rotate-secret">Rotate secret</button>
</section>

<section id="plan" class="card" aria-labelledby="plan-h">
  <h2 id="plan-h">Plan and usage</h2>
  <p>Plan: <strong id="plan-name">${account.plan}</strong></p>
  <div id="usage" aria-live="polite"></div>
  <div id="billing-slot" data-slot="billing">${billingSlot(account, extras.billing ?? null)}</div>
</section>

<section id="account" class="card" aria-labelledby="account-h">
  <h2 id="account-h">Account</h2>
  <details><summary>Change password</summary>
  <form method="post" action="/auth/password">
    <label for="current-password">Current password</label>
    <input id="current-password" name="current_password" type="password" autocomplete="current-password">
    <label for="new-password">New password <span class="hint">(at least 10 characters)</span></label>
    <input id="new-password" name="new_password" type="password" autocomplete="new-password" minlength="10" required>
    <button type="submit">Change password</button>
  </form></details>
  <h3>Delete the account</h3>
  <p>Deleting removes your account, sign-in, keys and history. It cannot be undone.</p>
  <!-- slot:account-deletion — POST /v1/account/deletion (the data-handling module) -->
  <form id="delete-form" data-available="${extras.deletionRoute ? "yes" : "no"}">
    <label for="delete-confirm">Type <strong>delete my account</strong> to confirm</label>
    <input id="delete-confirm" name="confirm" autocomplete="off" required>
    <button type="submit" class="danger">Delete my account</button>
  </form>
  <div id="delete-result" aria-live="polite"></div>
</section>`, { user });
}

export interface GraphPicture {
  readonly nodes: readonly { id: string; type: string; value: string; risk_level?: string | null; depth: number }[];
  readonly edges: readonly { from: string; to: string; relation: string }[];
  readonly root: string;
  readonly truncated: boolean;
}

/** The graph as an SVG: the root in the middle, each further hop on a wider ring. */
export function graphSvg(g: GraphPicture): Html {
  const size = 640;
  const c = size / 2;
  const byDepth = new Map<number, GraphPicture["nodes"][number][]>();
  for (const n of g.nodes) byDepth.set(n.depth, [...(byDepth.get(n.depth) ?? []), n]);
  const maxDepth = Math.max(1, ...byDepth.keys());
  const at = new Map<string, { x: number; y: number }>();
  for (const [depth, nodes] of byDepth) {
    const r = depth === 0 ? 0 : (depth / maxDepth) * (c - 70);
    nodes.forEach((n, i) => {
      const a = (2 * Math.PI * i) / nodes.length - Math.PI / 2 + depth * 0.4;
      at.set(n.id, { x: c + r * Math.cos(a), y: c + r * Math.sin(a) });
    });
  }
  const label = (v: string) => (v.length > 28 ? `${v.slice(0, 27)}…` : v);
  return h`<svg viewBox="0 0 ${size} ${size}" role="img" aria-labelledby="graph-title" class="graph" xmlns="http://www.w3.org/2000/svg">
<title id="graph-title">Relationship graph of ${g.root}: ${g.nodes.length} entities, ${g.edges.length} links</title>
${g.edges.map((e) => {
    const a = at.get(e.from);
    const b = at.get(e.to);
    return a && b ? h`<line x1="${a.x.toFixed(1)}" y1="${a.y.toFixed(1)}" x2="${b.x.toFixed(1)}" y2="${b.y.toFixed(1)}" class="edge"><title>${e.relation}</title></line>` : "";
  })}
${g.nodes.map((n) => {
    const p = at.get(n.id)!;
    return h`<g class="node risk-${n.risk_level ?? "unknown"}${n.id === g.root ? " root" : ""}"><circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="${n.id === g.root ? 14 : 10}"></circle><text x="${p.x.toFixed(1)}" y="${(p.y + 26).toFixed(1)}" text-anchor="middle">${label(n.value)}</text><title>${n.type}: ${n.value}${n.risk_level ? ` (${n.risk_level})` : ""}</title></g>`;
  })}
</svg>`;
}

export function graphPage(user: WebUser, q: { type: string; value: string }, g: GraphPicture | null, error?: string): Html {
  return layout("Graph", h`<p><a href="/#graph">← Dashboard</a></p>
<h1>Relationship graph</h1>
<form method="get" action="/graph" class="row card">
  <div><label for="graph-type">Type</label><select id="graph-type" name="type">${TYPES.map((t) => h`<option ${t === q.type ? "selected" : ""}>${t}</option>`)}</select></div>
  <div class="grow"><label for="graph-value">Entity</label><input id="graph-value" name="value" value="${q.value}" required></div>
  <div class="actions"><button type="submit">Show graph</button></div>
</form>
${error ? h`<p class="error" role="alert">${error}</p>` : ""}
${g ? h`<figure class="card">${graphSvg(g)}<figcaption>${g.nodes.length} entities, ${g.edges.length} links${g.truncated ? " (cut at the size limit)" : ""}. Colour shows the risk level of your own latest check of each entity.</figcaption></figure>
<table><caption>Links</caption><thead><tr><th scope="col">From</th><th scope="col">Relation</th><th scope="col">To</th></tr></thead><tbody>
${g.edges.map((e) => h`<tr><td>${e.from}</td><td>${e.relation}</td><td>${e.to}</td></tr>`)}
</tbody></table>` : ""}`, { user });
}
