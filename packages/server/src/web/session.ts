import { createHash, randomBytes } from "node:crypto";
import { apiKeyHint, formatApiKey, hashApiKey, type Account, type WebAccountStore, type WebUser } from "@svc/server-ports";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { authenticate, type Caller } from "../middleware/auth.js";
import { problem } from "../problem.js";
import { publicOrigin } from "../public-origin.js";
import type { ApiServices } from "../services.js";
import type { Mailer } from "./mailer.js";
import type { OAuthProvider } from "./oauth.js";

/** The dashboard's parts of the services (composition root: container.ts). */
export interface WebServices {
  readonly store: WebAccountStore;
  readonly mailer: Mailer;
  readonly oauth: ReadonlyMap<string, OAuthProvider>;
  /** SVC_PUBLIC_URL's origin; else each request's own. */
  readonly publicUrl: string | undefined;
  readonly loginAttemptsPerMinute: number;
}

export const SESSION_COOKIE = "svc_session";
export const SESSION_HOURS = 72;
/** A social sign-in must come back from the provider within this. */
export const OAUTH_FLOW_MINUTES = 10;

export const TOKEN = /^[\w-]{43}$/;

export const newSecret = (): string => randomBytes(32).toString("base64url");
export const sha256 = (v: string): string => createHash("sha256").update(v).digest("hex");

export const expectedOrigin = (s: ApiServices, c: Context): string => s.web.publicUrl ?? publicOrigin(c);

/**
 * The one cookie: httpOnly, Secure, SameSite=Lax, on `/`. Its value is 256 random bits; the
 * database keeps only its SHA-256.
 */
export function setSessionCookie(c: Context, token: string, maxAgeSeconds: number): void {
  setCookie(c, SESSION_COOKIE, token, { path: "/", httpOnly: true, secure: true, sameSite: "Lax", maxAge: maxAgeSeconds });
}

export function clearSessionCookie(c: Context): void {
  setCookie(c, SESSION_COOKIE, "", { path: "/", httpOnly: true, secure: true, sameSite: "Lax", maxAge: 0 });
}

export const sessionToken = (c: Context): string | null => {
  const v = getCookie(c, SESSION_COOKIE);
  return v && TOKEN.test(v) ? v : null;
};

/** A fresh signed-in session (the caller revokes the one it replaces: rotation). */
export async function startSession(s: ApiServices, c: Context, userId: string): Promise<void> {
  const token = newSecret();
  const now = s.clock.now();
  await s.web.store.createSession({ id_hash: sha256(token), user_id: userId, expires_at: new Date(now.getTime() + SESSION_HOURS * 3_600_000) }, now);
  setSessionCookie(c, token, SESSION_HOURS * 3600);
}

/** The signed-in user behind the request's cookie: live, unexpired, unrevoked; else null. */
export async function currentUser(s: ApiServices, c: Context): Promise<WebUser | null> {
  const token = sessionToken(c);
  if (!token) return null;
  const session = await s.web.store.session(sha256(token));
  if (!session?.user_id || session.revoked_at || Date.parse(session.expires_at) <= s.clock.now().getTime()) return null;
  return s.web.store.userById(session.user_id);
}

/**
 * Cross-site request forgery: a write made with the cookie must come from a page of this origin.
 * Fetch Metadata (`Sec-Fetch-Site`) must say same-origin when sent, `Origin` must be this origin
 * when sent, and one of the two must be there (every current browser sends both on a POST).
 * With `cookie: false` (sign-in forms, before there is a session) only a header that is present
 * and names another site refuses the request, so programs without those headers can still sign up.
 */
export function sameOriginProblem(s: ApiServices, c: Context, cookie: boolean): string | null {
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  if (site !== undefined && site !== "same-origin") return `Sec-Fetch-Site is ${site}`;
  if (origin !== undefined && origin !== expectedOrigin(s, c)) return "Origin is another site";
  if (cookie && site === undefined && origin === undefined) return "neither Origin nor Sec-Fetch-Site was sent";
  return null;
}

export function refuseCrossSite(s: ApiServices, c: Context, cookie: boolean): void {
  const why = sameOriginProblem(s, c, cookie);
  if (why) throw problem({ status: 403, code: "auth.cross_site", title: "Cross-site request refused", detail: `A request made with the session cookie must come from this site's own pages (${why}).` });
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * `/v1/*`: an API key when one is sent (the cookie is then ignored); else the session cookie,
 * which acts through the user's dashboard key on the user's own account only, and writes pass
 * the same-origin check.
 */
export const authenticateKeyOrSession = (s: ApiServices): MiddlewareHandler => {
  const byKey = authenticate(s);
  return async (c, next) => {
    if (c.req.header("x-api-key") !== undefined || c.req.header("authorization") !== undefined || !sessionToken(c)) return byKey(c, next);
    const user = await currentUser(s, c);
    if (!user) throw problem({ status: 401, code: "auth.session_expired", title: "Unauthorized", detail: "Your session has ended; sign in again." });
    if (!SAFE.has(c.req.method)) refuseCrossSite(s, c, true);
    const account = await s.accounts.get(user.account_id);
    if (!account) throw problem({ status: 401, code: "auth.session_expired", title: "Unauthorized", detail: "This account no longer exists." });
    const keyId = await dashboardKey(s, user, account);
    // Operator rights are for keys only: a browser session never moderates or manages other accounts.
    c.set("caller" as never, { accountId: account.id, keyId, plan: account.plan, role: "customer", sessionUserId: user.id } satisfies Caller as never);
    return next();
  };
};

/**
 * The dashboard calls the API through a key of the account (its secret is thrown away at
 * creation), so limits, usage and audit records work as for any key. Revoked from the key list,
 * it is replaced at the next request.
 */
export async function dashboardKey(s: ApiServices, user: WebUser, account: Account): Promise<string> {
  if (user.dashboard_key_id) {
    const keys = await s.keys.list(account.id);
    if (keys.some((k) => k.id === user.dashboard_key_id && !k.revoked_at)) return user.dashboard_key_id;
  }
  const key = formatApiKey(randomBytes(32));
  const rec = await s.keys.create({ account_id: account.id, key_hash: hashApiKey(key), prefix: apiKeyHint(key), name: "dashboard (web sign-in)", plan: null }, s.clock.now());
  await s.web.store.updateUser(user.id, { dashboard_key_id: rec.id });
  return rec.id;
}
