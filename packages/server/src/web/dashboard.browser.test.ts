import { existsSync, mkdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve, type ServerType } from "@hono/node-server";
import { chromium, type Browser, type Page } from "playwright-core";
import { startFakeStripe, subscriptionObject, type FakeStripe } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "../test-support.js";
import { smtpSink, type SmtpSink } from "./test-doubles.js";

/**
 * The dashboard in a real headless Chromium (Debian's `chromium`, driven by playwright-core)
 * against the real API on 127.0.0.1. `SVC_WEB_SCREENSHOTS=1` also writes the pictures in
 * docs/img/ that docs/web.md shows.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
const SHOTS = process.env.SVC_WEB_SCREENSHOTS === "1" ? resolve(dirname(fileURLToPath(import.meta.url)), "../../../../docs/img") : null;
if (!CHROMIUM) console.warn("dashboard browser test skipped: no chromium binary found (apt-get install chromium, or set CHROMIUM_PATH)");

describe.skipIf(!CHROMIUM)("dashboard in headless Chromium", () => {
  let api: TestApi;
  let mail: SmtpSink;
  let stripe: FakeStripe;
  let server: ServerType;
  let browser: Browser;
  let page: Page;
  let origin: string;

  beforeAll(async () => {
    mail = await smtpSink();
    stripe = await startFakeStripe();
    api = await startTestApi("pglite", {
      SVC_SMTP_URL: mail.url, SVC_STRIPE_SECRET_KEY: stripe.secretKey, SVC_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, SVC_STRIPE_API_URL: stripe.url,
      SVC_STRIPE_PRICE_STARTER: "price_1BrowserStarter", SVC_STRIPE_PRICE_PRO: "price_1BrowserPro",
    });
    server = serve({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((r) => (server.listening ? r() : server.once("listening", () => r())));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox", "--disable-gpu", "--no-proxy-server"] });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await api?.close();
    await mail?.close();
    await stripe?.close();
  });

  const shot = async (name: string, full = false) => {
    if (SHOTS) await page.screenshot({ path: resolve(SHOTS, `web-${name}.png`), fullPage: full });
  };

  it("sign up, screen, history and export, keys, graph, sign out and in, account deletion", async () => {
    // No request of the pages' own origin fails (the icon included).
    const failed: string[] = [];
    page.on("response", (r) => { if (r.url().startsWith(origin) && r.status() >= 400 && !r.url().includes("/auth/")) failed.push(`${r.status()} ${r.url()}`); });
    const icon = await fetch(`${origin}/favicon.ico`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
    expect(await icon.text()).toContain("<svg");
    const email = "browser.person@example.com";
    const password = "a long browser password";
    await page.goto(`${origin}/`);
    await expect.poll(() => page.getByRole("heading", { name: "Create an account" }).isVisible()).toBe(true);
    await shot("sign-in");

    // Sign up (a form post; the cookie is set by the answer).
    await page.getByLabel("E-mail address", { exact: true }).nth(2).fill(email);
    await page.locator("#signup-password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.locator("#login-email").fill(email);
    await page.locator("#login-password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).toEqual(["svc_session"]);
    expect(cookies[0]).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax" });
    await expect.poll(() => mail.mails.some((m) => m.to.includes(email))).toBe(true);

    // Every control has a label (or an accessible name), and the keyboard reaches the first field.
    const unlabelled = (await page.evaluate(`[...document.querySelectorAll("input:not([type=hidden]), select, button")]
      .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute("aria-label") && !e.textContent.trim()).map((e) => e.id || e.name || e.outerHTML)`)) as string[];
    expect(unlabelled).toEqual([]);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Skip to content");

    // Screen an entity and read the verdict with its signals.
    await page.getByLabel("Domain, URL, wallet, e-mail, IP, phone or social account").fill("https://login.paypa1-secure.example.net/verify");
    await page.getByRole("button", { name: "Screen", exact: true }).click();
    const verdict = page.getByTestId("verdict");
    await verdict.waitFor();
    expect(await verdict.textContent()).toMatch(/Risk (low|medium|high|critical)/);
    expect(await verdict.locator("ul.signals li").count()).toBeGreaterThan(0);
    await shot("verdict");

    // History with a filter, and the CSV export.
    await page.getByTestId("history").waitFor();
    expect(await page.getByTestId("history").locator("tbody tr").count()).toBe(1);
    await page.locator("#history-type").selectOption("wallet");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("No checks yet.").waitFor();
    await page.locator("#history-type").selectOption("url");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByTestId("history").waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv.split("\r\n")[0]).toContain("entity_value");
    expect(csv).toContain("login.paypa1-secure.example.net");
    await page.locator("#history").scrollIntoViewIfNeeded();
    await shot("history");

    // API keys: created (shown once), listed, revoked.
    await page.getByLabel("Name", { exact: true }).fill("ci");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-key").textContent())!;
    expect(key).toMatch(/^svc_live_/);
    const usage = await fetch(`${origin}/v1/usage`, { headers: { "x-api-key": key } });
    expect(usage.status).toBe(200);
    await page.getByRole("button", { name: "Revoke key ci" }).waitFor();
    await page.locator("#keys").scrollIntoViewIfNeeded();
    await shot("keys");
    await page.getByRole("button", { name: "Revoke key ci" }).click();
    await page.getByTestId("keys").getByText("revoked").waitFor();
    // The revoked key's secret is no longer on the page.
    expect(await page.getByTestId("new-key").count()).toBe(0);
    expect(await page.locator("#new-key").textContent()).not.toContain(key);
    expect((await fetch(`${origin}/v1/usage`, { headers: { "x-api-key": key } })).status).toBe(401);

    // Webhook secret: shown, rotated.
    await page.getByRole("button", { name: "Show secret" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect.poll(() => page.getByTestId("webhook-secret").textContent()).not.toBe(secret);
    await page.getByTestId("usage").waitFor();
    expect(await page.getByTestId("usage").textContent()).toMatch(/1 of \d+ checks this month/);
    await shot("dashboard", true);

    // Billing: upgrade through Stripe Checkout, see the subscription, manage it in the Billing Portal.
    // (Stripe's own pages are stood in for: the test reaches nothing beyond 127.0.0.1.)
    await page.route(/^https:\/\/(checkout|billing)\.stripe\.com\//, (r) => r.fulfill({ status: 200, contentType: "text/html", body: "<title>Stripe</title><h1>Stripe</h1>" }));
    expect(await page.getByTestId("subscription").textContent()).toBe("No subscription.");
    expect(await page.getByRole("button", { name: "Manage billing" }).count()).toBe(0);
    await page.getByRole("button", { name: /^Upgrade to Pro/ }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = stripe.requests.findLast((r) => r.path === "/v1/checkout/sessions");
    expect(sent?.form).toMatchObject({ "line_items[0][price]": "price_1BrowserPro", success_url: `${origin}/?checkout=success` });
    const nowS = Math.floor(Date.now() / 1000);
    const periodEnd = nowS + 30 * 86_400;
    const sub = subscriptionObject({ id: "sub_browser", customer: sent!.form.customer as string, price: "price_1BrowserPro", status: "active", periodEnd });
    const deliver = async (type: string, object: Record<string, unknown>, at: number) => {
      const body = stripe.event(type, object, at);
      const res = await fetch(`${origin}/v1/billing/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": stripe.sign(body, at) }, body });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    // Stripe sends the customer back to the dashboard, which says the plan follows the payment.
    await page.goto(sent!.form.success_url as string);
    expect(await page.getByRole("status").filter({ hasText: "the plan changes as soon as Stripe confirms the payment" }).count()).toBe(1);
    await deliver("customer.subscription.created", sub, nowS);
    await page.goto(`${origin}/#plan`);
    const day = new Date(periodEnd * 1000).toISOString().slice(0, 10);
    expect(await page.locator("#plan-name").textContent()).toBe("pro");
    expect(await page.getByTestId("subscription").textContent()).toContain(`Renews on ${day}`);
    expect(await page.getByRole("button", { name: /^Upgrade to/ }).count()).toBe(0);
    await deliver("customer.subscription.updated", { ...sub, cancel_at_period_end: true }, nowS + 1);
    await page.reload();
    expect(await page.getByTestId("subscription").textContent()).toContain(`Cancelled: it ends on ${day}`);
    await page.locator("#plan").scrollIntoViewIfNeeded();
    await shot("billing");
    await page.getByRole("button", { name: "Manage billing" }).click();
    await page.waitForURL(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(stripe.requests.findLast((r) => r.path === "/v1/billing_portal/sessions")?.form).toMatchObject({ customer: sent!.form.customer, return_url: `${origin}/` });
    await page.goto(`${origin}/`);

    // The relationship graph of the screened URL's domain.
    await page.locator("#graph-type").selectOption("domain");
    await page.locator("#graph-value").fill("paypa1-secure.example.net");
    await page.getByRole("button", { name: "Show graph" }).click();
    await page.locator("svg.graph").waitFor();
    expect(await page.locator("svg.graph g.node").count()).toBeGreaterThanOrEqual(2);
    await shot("graph");

    expect(failed).toEqual([]);

    // On a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/`);
    const overflow = (await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")) as number;
    expect(overflow).toBeLessThanOrEqual(1);
    await shot("phone");
    await page.setViewportSize({ width: 1200, height: 900 });

    // Sign out, and back in: a new session value.
    const before = (await page.context().cookies())[0]!.value;
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.locator("#login-email").fill(email);
    await page.locator("#login-password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect((await page.context().cookies())[0]!.value).not.toBe(before);

    // Account deletion: the request is accepted, the session ends, and the sign-in page comes back.
    await page.locator("#delete-confirm").fill("delete my account");
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/v1/account/deletion")), page.getByRole("button", { name: "Delete my account" }).click()]);
    expect(res.status()).toBe(202);
    // The page goes to "/", which without a session is the sign-in page.
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("heading", { name: "Dashboard" }).count()).toBe(0);
  }, 60_000);
});
