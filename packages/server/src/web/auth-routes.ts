import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { ProblemSchema } from "@svc/contracts";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestLog } from "../middleware/request-id.js";
import { ApiProblem, problem, problemResponse } from "../problem.js";
import type { ApiServices } from "../services.js";
import { messagePage, resetPage, signInPage } from "./pages.js";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords.js";
import {
  OAUTH_FLOW_MINUTES, TOKEN, clearSessionCookie, currentUser, expectedOrigin, newSecret, refuseCrossSite, sessionToken, setSessionCookie, sha256, startSession,
} from "./session.js";

const VERIFY_HOURS = 24;
const RESET_MINUTES = 60;
const Email = z.email().max(254);

/** A form post (answered with pages and redirects) or JSON (answered with JSON and problem+json). */
const isForm = (c: Context): boolean => /^(?:application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header("content-type") ?? "");

async function fields(c: Context): Promise<Record<string, string>> {
  if (isForm(c)) {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"));
  }
  if (!/^application\/json/i.test(c.req.header("content-type") ?? "")) {
    throw problem({ status: 415, code: "request.unsupported_media_type", title: "Unsupported media type", detail: "Send JSON (application/json) or a form (application/x-www-form-urlencoded)." });
  }
  const body = await c.req.json().catch(() => null);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw problem({ status: 400, code: "request.malformed_json", title: "Malformed JSON", detail: "The body must be a JSON object." });
  return Object.fromEntries(Object.entries(body as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"));
}

const invalid = (pointer: string, message: string) =>
  problem({ status: 422, code: "request.invalid", title: "Invalid request", detail: message, errors: [{ pointer, code: "request.invalid", message }] });

export function registerAuthRoutes(app: OpenAPIHono, s: ApiServices): void {
  documentAuthRoutes(app);
  const w = s.web;
  const now = () => s.clock.now();

  app.use("/auth/*", bodyLimit({ maxSize: 16 * 1024, onError: (c) => problemResponse(c, { status: 413, code: "request.too_large", title: "Body too large", detail: "Sign-in requests are limited to 16 KiB." }) }));
  // Every write under /auth comes from this site's pages or from a program without a browser.
  app.use("/auth/*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") refuseCrossSite(s, c, sessionToken(c) !== null);
    return next();
  });
  // Form posts see a page (never problem+json) when something is wrong.
  app.use("/auth/*", async (c, next) => {
    await next();
    const err = c.error;
    if (err instanceof ApiProblem && isForm(c) && c.req.method === "POST") {
      const mode = c.req.path === "/auth/signup" ? "signup" : "login";
      c.res = undefined as never;
      c.res = await c.html(signInPage({ mode, error: err.init.detail, providers: [...w.oauth.values()] }), err.init.status as never);
      c.error = undefined;
    }
  });

  async function throttle(c: Context, email: string): Promise<void> {
    const limit = w.loginAttemptsPerMinute;
    const ip = c.env?.incoming?.socket?.remoteAddress as string | undefined;
    const at = now();
    const byEmail = await s.rates.take(`login:${sha256(email)}`, at, 1, limit);
    const byClient = ip ? await s.rates.take(`login-ip:${ip}`, at, 1, limit * 5) : { allowed: true, resetMs: 0 };
    if (!byEmail.allowed || !byClient.allowed) {
      const retry = Math.max(1, Math.ceil(Math.max(byEmail.allowed ? 0 : byEmail.resetMs, byClient.allowed ? 0 : byClient.resetMs) / 1000));
      throw problem({ status: 429, code: "auth.too_many_attempts", title: "Too many sign-in attempts", detail: `Too many sign-in attempts; try again in ${retry} seconds.`, headers: { "Retry-After": String(retry) }, retryable: true });
    }
  }

  async function sendVerification(c: Context, userId: string, email: string): Promise<void> {
    const token = newSecret();
    await w.store.createToken({ token_hash: sha256(token), user_id: userId, purpose: "verify_email", expires_at: new Date(now().getTime() + VERIFY_HOURS * 3_600_000) }, now());
    const log = requestLog(s, c);
    await w.mailer.send({ to: email, subject: "Confirm your e-mail address for svc", text: `Confirm your e-mail address by opening this link within ${VERIFY_HOURS} hours:\n\n${expectedOrigin(s, c)}/auth/verify?token=${token}\n\nIf you did not sign up, ignore this message.` }, log)
      .catch((err: unknown) => log.error({ err }, "verification e-mail not sent"));
  }

  async function resetLink(c: Context, userId: string): Promise<string> {
    const token = newSecret();
    await w.store.createToken({ token_hash: sha256(token), user_id: userId, purpose: "reset_password", expires_at: new Date(now().getTime() + RESET_MINUTES * 60_000) }, now());
    return `${expectedOrigin(s, c)}/auth/password/reset?token=${token}`;
  }

  /** A sign-up with an address that has an account: its owner hears of it (and can reset the password). */
  async function sendSignupAttempt(c: Context, userId: string, email: string): Promise<void> {
    const link = await resetLink(c, userId);
    const log = requestLog(s, c);
    await w.mailer.send({ to: email, subject: "Someone tried to sign up to svc with your address", text: `Someone (perhaps you) tried to create an svc account with this e-mail address, which already has one. Nothing was changed.\n\nIf it was you, sign in at ${expectedOrigin(s, c)}/ or choose a new password within ${RESET_MINUTES} minutes:\n\n${link}\n\nIf it was not you, ignore this message; your password stays as it is.` }, log)
      .catch((err: unknown) => log.error({ err }, "sign-up attempt e-mail not sent"));
  }

  /** Revokes the session the request came with (if any): every sign-in gets a new cookie value. */
  async function endPresentedSession(c: Context): Promise<void> {
    const token = sessionToken(c);
    if (token) await w.store.revokeSession(sha256(token), now());
  }

  const signedIn = async (c: Context, userId: string, status: 200 | 201) => {
    await endPresentedSession(c);
    await startSession(s, c, userId);
    c.header("cache-control", "no-store");
    if (isForm(c)) return c.redirect("/", 303);
    const user = await w.store.userById(userId);
    return c.json({ user: publicUser(user!) }, status);
  };

  app.post("/auth/signup", async (c) => {
    const f = await fields(c);
    const email = Email.safeParse((f.email ?? "").trim().toLowerCase());
    if (!email.success) throw invalid("/email", "Enter a valid e-mail address.");
    const password = f.password ?? "";
    const weak = passwordProblem(password, email.data);
    if (weak) throw invalid("/password", weak);
    await throttle(c, email.data);
    // The answer is the same whether or not the address already has an account (no way to
    // find out who has one): a new account gets a confirmation link, an existing one's owner
    // a note that someone tried, with a link to reset the password.
    const hashed = await hashPassword(password);
    const existing = await w.store.userByEmail(email.data);
    if (existing) {
      await sendSignupAttempt(c, existing.id, existing.email);
    } else {
      const plan = Object.hasOwn(s.plans, "free") ? "free" : Object.keys(s.plans)[0]!;
      const account = await s.accounts.create({ name: email.data, plan }, now());
      const user = await w.store.createUser({ account_id: account.id, email: email.data, password_hash: hashed }, now());
      // null: created meanwhile by a concurrent sign-up; its owner is told like any other repeat.
      if (user) await sendVerification(c, user.id, user.email);
      else {
        const raced = await w.store.userByEmail(email.data);
        if (raced) await sendSignupAttempt(c, raced.id, raced.email);
      }
    }
    c.header("cache-control", "no-store");
    const text = "Check your e-mail: we sent a message to this address. Then sign in with your e-mail address and password.";
    return isForm(c) ? c.html(messagePage("Check your e-mail", text, { href: "/", label: "Sign in" }), 202) : c.json({ status: "check_email", detail: text }, 202);
  });

  app.post("/auth/login", async (c) => {
    const f = await fields(c);
    const email = (f.email ?? "").trim().toLowerCase();
    if (!email || !f.password) throw invalid(email ? "/password" : "/email", "Enter your e-mail address and password.");
    await throttle(c, email);
    const user = await w.store.userByEmail(email);
    if (!(await verifyPassword(user?.password_hash ?? null, f.password)) || !user) {
      throw problem({ status: 401, code: "auth.invalid_credentials", title: "Wrong e-mail or password", detail: "The e-mail address or the password is wrong." });
    }
    return signedIn(c, user.id, 200);
  });

  app.post("/auth/logout", async (c) => {
    await endPresentedSession(c);
    clearSessionCookie(c);
    return isForm(c) ? c.redirect("/", 303) : c.body(null, 204);
  });

  app.get("/auth/me", async (c) => {
    const user = await currentUser(s, c);
    if (!user) return problemResponse(c, { status: 401, code: "auth.no_session", title: "Unauthorized", detail: "Not signed in." });
    c.header("cache-control", "no-store");
    return c.json({ user: publicUser(user) });
  });

  app.get("/auth/verify", async (c) => {
    const token = c.req.query("token") ?? "";
    const userId = TOKEN.test(token) ? await w.store.useToken(sha256(token), "verify_email", now()) : null;
    if (!userId) return c.html(messagePage("Link not valid", "This confirmation link has expired or was already used. Sign in and ask for a new one."), 400);
    await w.store.updateUser(userId, { email_verified_at: now() });
    return c.html(messagePage("E-mail address confirmed", "Thank you: your e-mail address is confirmed.", { href: "/", label: "Go to the dashboard" }));
  });

  app.post("/auth/verify/resend", async (c) => {
    const user = await currentUser(s, c);
    if (!user) throw problem({ status: 401, code: "auth.no_session", title: "Unauthorized", detail: "Sign in first." });
    if (!user.email_verified_at) await sendVerification(c, user.id, user.email);
    return c.body(null, 202);
  });

  app.post("/auth/password/forgot", async (c) => {
    const f = await fields(c);
    const email = (f.email ?? "").trim().toLowerCase();
    await throttle(c, email);
    const user = email ? await w.store.userByEmail(email) : null;
    if (user) {
      const link = await resetLink(c, user.id);
      const log = requestLog(s, c);
      await w.mailer.send({ to: user.email, subject: "Reset your svc password", text: `Choose a new password by opening this link within ${RESET_MINUTES} minutes:\n\n${link}\n\nIf you did not ask for this, ignore this message; your password stays as it is.` }, log)
        .catch((err: unknown) => log.error({ err }, "reset e-mail not sent"));
    }
    // The same answer whether or not the address has an account.
    const text = "If an account uses this address, a link to choose a new password is on its way.";
    return isForm(c) ? c.html(messagePage("Check your e-mail", text), 202) : c.json({ status: "sent_if_known", detail: text }, 202);
  });

  app.get("/auth/password/reset", (c) => c.html(resetPage(c.req.query("token") ?? "")));

  app.post("/auth/password/reset", async (c) => {
    const f = await fields(c);
    const token = f.token ?? "";
    const userId = TOKEN.test(token) ? await w.store.useToken(sha256(token), "reset_password", now()) : null;
    if (!userId) throw problem({ status: 400, code: "auth.invalid_token", title: "Link not valid", detail: "This reset link has expired or was already used; ask for a new one." });
    const user = (await w.store.userById(userId))!;
    const weak = passwordProblem(f.password ?? "", user.email);
    if (weak) throw invalid("/password", weak);
    // The link came by e-mail, so the address is confirmed too. Every session ends.
    await w.store.updateUser(userId, { password_hash: await hashPassword(f.password!), ...(user.email_verified_at ? {} : { email_verified_at: now() }) });
    await w.store.revokeUserSessions(userId, now());
    return signedIn(c, userId, 200);
  });

  app.post("/auth/password", async (c) => {
    const user = await currentUser(s, c);
    if (!user) throw problem({ status: 401, code: "auth.no_session", title: "Unauthorized", detail: "Sign in first." });
    const f = await fields(c);
    if (user.password_hash && !(await verifyPassword(user.password_hash, f.current_password ?? ""))) {
      throw problem({ status: 403, code: "auth.invalid_credentials", title: "Wrong password", detail: "The current password is wrong." });
    }
    const weak = passwordProblem(f.new_password ?? "", user.email);
    if (weak) throw invalid("/new_password", weak);
    await w.store.updateUser(user.id, { password_hash: await hashPassword(f.new_password!) });
    // Every session of the user ends, other browsers included; this one gets a new cookie.
    await w.store.revokeUserSessions(user.id, now());
    return signedIn(c, user.id, 200);
  });

  // Social sign-in: the flow's state (hashed) and PKCE verifier are kept in a short session whose
  // cookie is the same svc_session, so the callback is only accepted in the browser that started it.
  app.get("/auth/oauth/:provider", async (c) => {
    const p = w.oauth.get(c.req.param("provider"));
    if (!p) return c.html(messagePage("Not available", "This sign-in method is not configured on this server."), 404);
    const { state, codeVerifier: verifier } = p.newFlow();
    const token = newSecret();
    await endPresentedSession(c);
    await w.store.createSession({ id_hash: sha256(token), user_id: null, expires_at: new Date(now().getTime() + OAUTH_FLOW_MINUTES * 60_000), oauth_provider: p.name, oauth_state_hash: sha256(state), oauth_verifier: verifier }, now());
    setSessionCookie(c, token, OAUTH_FLOW_MINUTES * 60);
    c.header("cache-control", "no-store");
    return c.redirect(p.authorizationUrl(`${expectedOrigin(s, c)}/auth/oauth/${p.name}/callback`, state, verifier).toString(), 302);
  });

  app.get("/auth/oauth/:provider/callback", async (c) => {
    const p = w.oauth.get(c.req.param("provider"));
    if (!p) return c.html(messagePage("Not available", "This sign-in method is not configured on this server."), 404);
    const refuse = () => c.html(messagePage("Sign-in not completed", "This sign-in link is not valid in this browser or has expired. Start again from the sign-in page.", { href: "/", label: "Back to sign-in" }), 400);
    const token = sessionToken(c);
    const state = c.req.query("state");
    const code = c.req.query("code");
    if (!token || !state || !code) return refuse();
    const flow = await w.store.session(sha256(token));
    // One use: the flow's session ends here whatever happens next.
    if (flow) await w.store.revokeSession(flow.id_hash, now());
    if (!flow || flow.user_id !== null || flow.revoked_at || Date.parse(flow.expires_at) <= now().getTime() || flow.oauth_provider !== p.name || flow.oauth_state_hash !== sha256(state) || !flow.oauth_verifier) {
      clearSessionCookie(c);
      return refuse();
    }
    let profile;
    try {
      profile = await p.profile(`${expectedOrigin(s, c)}/auth/oauth/${p.name}/callback`, code, flow.oauth_verifier);
    } catch (err) {
      requestLog(s, c).warn({ err, provider: p.name }, "social sign-in failed");
      clearSessionCookie(c);
      return c.html(messagePage("Sign-in not completed", `${p.label} did not confirm the sign-in. Try again.`, { href: "/", label: "Back to sign-in" }), 502);
    }
    let user = await w.store.userByIdentity(p.name, profile.subject);
    if (!user) {
      if (!profile.email || !profile.emailVerified) {
        clearSessionCookie(c);
        return c.html(messagePage("Sign-in not completed", `${p.label} did not give a confirmed e-mail address; confirm one there, or sign up with e-mail and password.`, { href: "/", label: "Back to sign-in" }), 400);
      }
      const email = profile.email.toLowerCase();
      // A confirmed address of an existing user signs in to that user.
      user = await w.store.userByEmail(email);
      if (!user) {
        const plan = Object.hasOwn(s.plans, "free") ? "free" : Object.keys(s.plans)[0]!;
        const account = await s.accounts.create({ name: profile.name ?? email, plan }, now());
        user = await w.store.createUser({ account_id: account.id, email, name: profile.name, picture: profile.picture, email_verified: true }, now());
        if (!user) return refuse();
      }
      await w.store.linkIdentity(p.name, profile.subject, user.id, now());
    }
    await w.store.updateUser(user.id, { name: profile.name ?? user.name, picture: profile.picture ?? user.picture });
    await startSession(s, c, user.id);
    c.header("cache-control", "no-store");
    return c.redirect("/", 303);
  });
}

export const publicUser = (u: { id: string; account_id: string; email: string; name: string | null; picture: string | null; email_verified_at: string | null; created_at: string }) => ({
  id: u.id, account_id: u.account_id, email: u.email, name: u.name, picture: u.picture, email_verified: u.email_verified_at !== null, created_at: u.created_at,
});

const Credentials = z.object({ email: z.string().openapi({ example: "ada@example.com" }), password: z.string().min(10).max(256) }).openapi("Credentials");
const WebUserSchema = z.object({
  user: z.object({ id: z.string(), account_id: z.string(), email: z.string(), name: z.string().nullable(), picture: z.string().nullable(), email_verified: z.boolean(), created_at: z.string() }),
}).openapi("WebUser");
const problemContent = { "application/problem+json": { schema: ProblemSchema } };
const prob = (...statuses: number[]) => Object.fromEntries(statuses.map((st) => [st, { description: "Problem details (RFC 9457); a form post gets the sign-in page instead", content: problemContent }]));
const both = (schema: z.ZodType) => ({ content: { "application/json": { schema }, "application/x-www-form-urlencoded": { schema } }, required: true });
const signedInAnswer = (status: number, what: string) => ({
  [status]: { description: `${what}; sets \`svc_session\` (HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=259200)`, content: { "application/json": { schema: WebUserSchema } } },
  303: { description: "A form post: redirect to `/` (the dashboard), cookie set" },
});
const page = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });

/** The `/auth` routes in the OpenAPI document (they take JSON or forms, so are registered by hand). */
export function documentAuthRoutes(app: OpenAPIHono): void {
  const r = app.openAPIRegistry;
  const tags = ["web sign-in"];
  r.registerPath({ method: "post", path: "/auth/signup", tags, summary: "Create an account (free plan) and its first user and send a confirmation e-mail; an address that has an account gets the same answer, and its owner a note with a reset link. Then sign in (POST /auth/login)", request: { body: both(Credentials) }, responses: { 202: { description: "Check your e-mail (a page for a form post)", content: { "application/json": { schema: z.object({ status: z.literal("check_email"), detail: z.string() }) } } }, ...prob(403, 413, 415, 422, 429) } });
  r.registerPath({ method: "post", path: "/auth/login", tags, summary: "Sign in with e-mail and password (throttled per address and client); a new session value every time", request: { body: both(Credentials) }, responses: { ...signedInAnswer(200, "Signed in"), ...prob(401, 403, 415, 422, 429) } });
  r.registerPath({ method: "post", path: "/auth/logout", tags, summary: "End the session (revoked server-side; the cookie is cleared)", responses: { 204: { description: "Signed out" }, 303: { description: "A form post: redirect to `/`" }, ...prob(403) } });
  r.registerPath({ method: "get", path: "/auth/me", tags, summary: "The signed-in user", security: [{ Session: [] }], responses: { 200: { description: "The user", content: { "application/json": { schema: WebUserSchema } } }, ...prob(401) } });
  r.registerPath({ method: "get", path: "/auth/verify", tags, summary: "Confirm the e-mail address (the link in the confirmation e-mail; single use, 24 hours)", request: { query: z.object({ token: z.string() }) }, responses: { 200: page("Confirmed"), 400: page("Expired, used or unknown link") } });
  r.registerPath({ method: "post", path: "/auth/verify/resend", tags, summary: "Send the confirmation e-mail again", security: [{ Session: [] }], responses: { 202: { description: "Sent (when the address is not yet confirmed)" }, ...prob(401, 403) } });
  r.registerPath({ method: "post", path: "/auth/password/forgot", tags, summary: "E-mail a password reset link (single use, 60 minutes); the same answer whether or not the address has an account", request: { body: both(z.object({ email: z.string() })) }, responses: { 202: { description: "Sent if the address is known", content: { "application/json": { schema: z.object({ status: z.literal("sent_if_known"), detail: z.string() }) } } }, ...prob(403, 429) } });
  r.registerPath({ method: "get", path: "/auth/password/reset", tags, summary: "The page that chooses a new password (from the reset e-mail)", request: { query: z.object({ token: z.string() }) }, responses: { 200: page("The form") } });
  r.registerPath({ method: "post", path: "/auth/password/reset", tags, summary: "Set a new password with a reset token; ends every session and signs in", request: { body: both(z.object({ token: z.string(), password: z.string() })) }, responses: { ...signedInAnswer(200, "Password set"), ...prob(400, 403, 422) } });
  r.registerPath({ method: "post", path: "/auth/password", tags, summary: "Change the password (current one required); ends every session of the user and signs this browser in again", security: [{ Session: [] }], request: { body: both(z.object({ current_password: z.string(), new_password: z.string() })) }, responses: { ...signedInAnswer(200, "Password changed"), ...prob(401, 403, 422) } });
  for (const provider of ["github", "google"] as const) {
    r.registerPath({ method: "get", path: `/auth/oauth/${provider}`, tags, summary: `Start ${provider === "github" ? "GitHub" : "Google"} sign-in: authorization code with PKCE (S256) and state, bound to this browser by a short-lived svc_session`, responses: { 302: { description: "To the provider" }, 404: page("Not configured on this server") } });
    r.registerPath({ method: "get", path: `/auth/oauth/${provider}/callback`, tags, summary: "The provider sends the browser back here; state, browser and expiry are checked, then the code is exchanged with the PKCE verifier", request: { query: z.object({ code: z.string(), state: z.string() }) }, responses: { 303: { description: "Signed in: to `/`, a new svc_session" }, 400: page("Wrong state, another browser, expired or replayed"), 502: page("The provider refused the code") } });
  }
}
