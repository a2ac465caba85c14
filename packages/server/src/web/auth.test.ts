import { ProblemSchema } from "@svc/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "../test-support.js";
import { ARGON2_OPTIONS } from "./passwords.js";
import { fakeOAuthProvider, oauthEnv, smtpSink, type FakeOAuthProvider, type SmtpSink } from "./test-doubles.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);
const ORIGIN = "http://app.test";
const SAME = { origin: ORIGIN, "sec-fetch-site": "same-origin" };

/** A settable clock, so session and token expiry are tested without waiting. */
class TestClock {
  t = Date.parse("2026-11-26T10:00:00Z");
  now(): Date { return new Date(this.t); }
  advance(ms: number): void { this.t += ms; }
}

const cookieOf = (res: Response): string | null => {
  const all = res.headers.getSetCookie().filter((c) => c.startsWith("svc_session="));
  return all.length ? all[all.length - 1]!.split(";")[0]!.slice("svc_session=".length) : null;
};

describe.each(engines)("web accounts (/auth) on %s", (engine) => {
  let api: TestApi;
  let mail: SmtpSink;
  let provider: FakeOAuthProvider;
  const clock = new TestClock();
  let n = 0;
  const email = () => `person${++n}.${engine}@example.com`;

  beforeAll(async () => {
    mail = await smtpSink();
    provider = await fakeOAuthProvider({ id: "4242", email: "octo@example.com", name: "Octo Cat", picture: "https://avatars.example/octo.png", extra: { location: "Sea", company: "Octo Inc", bio: "not to be kept" } });
    api = await startTestApi(engine, { SVC_PUBLIC_URL: ORIGIN, SVC_SMTP_URL: mail.url, SVC_LOGIN_ATTEMPTS_PER_MINUTE: "5", ...oauthEnv(provider.origin) }, { clock });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await mail?.close();
    await provider?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, cookie?: string | null) =>
    api.app.request(`${ORIGIN}${path}`, { method: "POST", headers: { "content-type": "application/json", ...SAME, ...(cookie ? { cookie: `svc_session=${cookie}` } : {}), ...headers }, body: JSON.stringify(body) });
  const get = (path: string, cookie?: string | null, headers: Record<string, string> = {}) =>
    api.app.request(`${ORIGIN}${path}`, { headers: { ...(cookie ? { cookie: `svc_session=${cookie}` } : {}), ...headers } });
  const me = async (cookie: string | null) => (await get("/auth/me", cookie)).status;
  const expectProblem = async (res: Response, status: number, code: string) => {
    expect(res.status, await res.clone().text()).toBe(status);
    expect(ProblemSchema.parse(await res.json()).code).toBe(code);
  };
  /** Sign-up ("check your e-mail", no session), then sign-in with the same password. */
  const signup = async (address = email(), password = "correct horse battery") => {
    const made = await post("/auth/signup", { email: address, password });
    expect(made.status, await made.clone().text()).toBe(202);
    expect(made.headers.getSetCookie()).toEqual([]);
    const res = await post("/auth/login", { email: address, password });
    expect(res.status, await res.clone().text()).toBe(200);
    return { email: address, password, cookie: cookieOf(res)!, res, body: (await res.json()) as { user: { id: string; account_id: string; email_verified: boolean } } };
  };

  it("sign-up stores an argon2id hash with the OWASP parameters (19 MiB, 2 passes, 1 lane) or stronger", async () => {
    expect(ARGON2_OPTIONS).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const u = await signup();
    const [row] = (await api.runtime.dataSource.query(`SELECT password_hash FROM web_users WHERE id = $1`, [u.body.user.id])) as { password_hash: string }[];
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(row!.password_hash);
    expect(m, row!.password_hash).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(19_456);
    expect(Number(m![2])).toBeGreaterThanOrEqual(2);
    expect(Number(m![3])).toBeGreaterThanOrEqual(1);
    expect(row!.password_hash).not.toContain(u.password);
  });

  it("sets one cookie, svc_session: httpOnly, Secure, SameSite=Lax, path /, 72 hours; the account is on the free plan", async () => {
    const u = await signup();
    const cookies = u.res.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    const attrs = cookies[0]!.split(";").map((p) => p.trim().toLowerCase());
    expect(attrs[0]).toMatch(/^svc_session=[a-z0-9_-]{43}$/);
    expect(attrs).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=lax", "path=/", `max-age=${72 * 3600}`]));
    expect(attrs.some((a) => a.startsWith("domain="))).toBe(false);
    expect((await api.runtime.services.accounts.get(u.body.user.account_id))?.plan).toBe("free");
    // Only the hash of the cookie value is stored.
    const rows = (await api.runtime.dataSource.query(`SELECT id_hash FROM web_sessions WHERE user_id = $1`, [u.body.user.id])) as { id_hash: string }[];
    expect(rows.map((r) => r.id_hash)).not.toContain(u.cookie);
    expect(await me(u.cookie)).toBe(200);
    // Pages and the sign-in page set no cookie of their own.
    expect((await get("/", null, { accept: "text/html" })).headers.getSetCookie()).toEqual([]);
    expect((await get("/", u.cookie, { accept: "text/html" })).headers.getSetCookie()).toEqual([]);
  });

  it("a session ends after 72 hours", async () => {
    const u = await signup();
    clock.advance(72 * 3_600_000 - 1_000);
    expect(await me(u.cookie)).toBe(200);
    clock.advance(2_000);
    expect(await me(u.cookie)).toBe(401);
    await expectProblem(await get("/v1/usage", u.cookie), 401, "auth.session_expired");
  });

  it("login rotates the session (a new value; the one presented is revoked); logout revokes it", async () => {
    const u = await signup();
    const res = await post("/auth/login", { email: u.email.toUpperCase(), password: u.password }, {}, u.cookie);
    expect(res.status).toBe(200);
    const fresh = cookieOf(res)!;
    expect(fresh).not.toBe(u.cookie);
    expect(await me(u.cookie)).toBe(401);
    expect(await me(fresh)).toBe(200);
    const out = await post("/auth/logout", {}, {}, fresh);
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^svc_session=;.*Max-Age=0/i);
    expect(await me(fresh)).toBe(401);
  });

  it("a wrong password is refused, and attempts are throttled per e-mail address", async () => {
    const u = await signup();
    await expectProblem(await post("/auth/login", { email: u.email, password: "wrong password!" }), 401, "auth.invalid_credentials");
    await expectProblem(await post("/auth/login", { email: "nobody@example.com", password: "wrong password!" }), 401, "auth.invalid_credentials");
    for (let i = 0; i < 3; i++) await post("/auth/login", { email: u.email, password: "wrong password!" });
    // Sign-up made one attempt too: the limit (5 a minute) is reached, so even the right password waits.
    const limited = await post("/auth/login", { email: u.email, password: u.password });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectProblem(limited, 429, "auth.too_many_attempts");
    clock.advance(61_000);
    expect((await post("/auth/login", { email: u.email, password: u.password })).status).toBe(200);
  });

  it("changing the password ends every session of the user; the browser that changed it gets a new one", async () => {
    const u = await signup();
    const other = cookieOf(await post("/auth/login", { email: u.email, password: u.password }))!;
    const res = await post("/auth/password", { current_password: u.password, new_password: "a brand new passphrase" }, {}, u.cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    const fresh = cookieOf(res)!;
    expect(await me(u.cookie)).toBe(401);
    expect(await me(other)).toBe(401);
    expect(await me(fresh)).toBe(200);
    await expectProblem(await post("/auth/login", { email: u.email, password: u.password }), 401, "auth.invalid_credentials");
  });

  it("refuses cookie-authenticated writes from another site (Origin, Sec-Fetch-Site, or neither sent)", async () => {
    const u = await signup();
    const screen = (headers: Record<string, string>) =>
      api.app.request(`${ORIGIN}/v1/screen`, { method: "POST", headers: { "content-type": "application/json", cookie: `svc_session=${u.cookie}`, ...headers }, body: JSON.stringify({ entity_value: "example.com" }) });
    await expectProblem(await screen({ origin: "https://evil.example", "sec-fetch-site": "cross-site" }), 403, "auth.cross_site");
    await expectProblem(await screen({ origin: "https://evil.example" }), 403, "auth.cross_site");
    await expectProblem(await screen({ "sec-fetch-site": "same-site" }), 403, "auth.cross_site");
    await expectProblem(await screen({}), 403, "auth.cross_site");
    expect((await screen(SAME)).status).toBe(200);
    // A read needs no such check (it changes nothing); the cross-site write above stored nothing.
    const history = (await (await get("/v1/history", u.cookie)).json()) as { items: unknown[] };
    expect(history.items).toHaveLength(1);
    // Signing in from another site's form is refused too (login CSRF).
    await expectProblem(await post("/auth/login", { email: u.email, password: u.password }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" }), 403, "auth.cross_site");
    await expectProblem(await post("/auth/logout", {}, { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, u.cookie), 403, "auth.cross_site");
    const crossForm = await api.app.request(`${ORIGIN}/auth/signup`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site" }, body: new URLSearchParams({ email: email(), password: "cross site password" }) });
    expect(crossForm.status).toBe(403);
    expect(crossForm.headers.getSetCookie()).toEqual([]);
    expect(await me(u.cookie)).toBe(200);
  });

  it("a session acts on its own account only: keys, usage and history; another account's are out of reach", async () => {
    const a = await signup();
    const b = await signup();
    const created = await post("/v1/keys", { name: "ci" }, {}, a.cookie);
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; key: string; account_id: string };
    expect(key.account_id).toBe(a.body.user.account_id);
    // The key works on its own, for the same account.
    const withKey = await api.app.request(`${ORIGIN}/v1/usage`, { headers: { "x-api-key": key.key } });
    expect(withKey.status).toBe(200);
    const listA = (await (await get("/v1/keys", a.cookie)).json()) as { items: { id: string; account_id: string }[] };
    expect(listA.items.every((k) => k.account_id === a.body.user.account_id)).toBe(true);
    await expectProblem(await get(`/v1/keys?account_id=${a.body.user.account_id}`, b.cookie), 403, "auth.operator_only");
    await expectProblem(await api.app.request(`${ORIGIN}/v1/keys/${key.id}`, { method: "DELETE", headers: { cookie: `svc_session=${b.cookie}`, ...SAME } }), 404, "keys.not_found");
    const revoked = await api.app.request(`${ORIGIN}/v1/keys/${key.id}`, { method: "DELETE", headers: { cookie: `svc_session=${a.cookie}`, ...SAME } });
    expect(revoked.status).toBe(204);
    await expectProblem(await api.app.request(`${ORIGIN}/v1/usage`, { headers: { "x-api-key": key.key } }), 401, "auth.revoked_key");
    expect((await get("/v1/usage", a.cookie)).status).toBe(200);
    // Creating a key for another account needs the operator.
    await expectProblem(await post("/v1/keys", { name: "x", account_id: b.body.user.account_id }, {}, a.cookie), 403, "auth.operator_only");
  });

  it("a session of the operator's account has no operator rights (those stay with keys)", async () => {
    const op = await api.account("pro", "operator");
    const address = email();
    const { hashPassword } = await import("./passwords.js");
    await api.runtime.services.web.store.createUser({ account_id: op.accountId, email: address, password_hash: await hashPassword("operator password 1") }, clock.now());
    const cookie = cookieOf(await post("/auth/login", { email: address, password: "operator password 1" }))!;
    await expectProblem(await get("/v1/reports", cookie), 403, "auth.operator_only");
    expect((await api.app.request(`${ORIGIN}/v1/reports`, { headers: { "x-api-key": op.key } })).status).toBe(200);
  });

  it("e-mail verification: a link by SMTP, single use, expiring", async () => {
    const u = await signup();
    expect(u.body.user.email_verified).toBe(false);
    const link = new URL(mail.link(u.email, "/auth/verify?token="));
    expect(link.origin).toBe(ORIGIN);
    const first = await get(`${link.pathname}${link.search}`);
    expect(first.status).toBe(200);
    expect(((await (await get("/auth/me", u.cookie)).json()) as { user: { email_verified: boolean } }).user.email_verified).toBe(true);
    expect((await get(`${link.pathname}${link.search}`)).status).toBe(400);
    const v = await signup();
    const late = new URL(mail.link(v.email, "/auth/verify?token="));
    clock.advance(24 * 3_600_000 + 1_000);
    expect((await get(`${late.pathname}${late.search}`)).status).toBe(400);
  });

  it("password reset: the same answer for unknown addresses; the link works once, within the hour, and ends every session", async () => {
    const u = await signup();
    const before = mail.mails.length;
    expect((await post("/auth/password/forgot", { email: "unknown@example.com" })).status).toBe(202);
    expect((await post("/auth/password/forgot", { email: u.email })).status).toBe(202);
    await expect.poll(() => mail.mails.length).toBe(before + 1);
    const token = new URL(mail.link(u.email, "/auth/password/reset?token=")).searchParams.get("token")!;
    const res = await post("/auth/password/reset", { token, password: "reset to something new" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await me(u.cookie)).toBe(401);
    expect(await me(cookieOf(res))).toBe(200);
    await expectProblem(await post("/auth/password/reset", { token, password: "and once more again" }), 400, "auth.invalid_token");
    expect((await post("/auth/login", { email: u.email, password: "reset to something new" })).status).toBe(200);
    await post("/auth/password/forgot", { email: u.email });
    const late = new URL(mail.link(u.email, "/auth/password/reset?token=")).searchParams.get("token")!;
    clock.advance(61 * 60_000);
    await expectProblem(await post("/auth/password/reset", { token: late, password: "too late for this one" }), 400, "auth.invalid_token");
  });

  it("a link token used twice at once works once", async () => {
    const u = await signup();
    const store = api.runtime.services.web.store;
    await store.createToken({ token_hash: "h".repeat(64), user_id: u.body.user.id, purpose: "reset_password", expires_at: new Date(clock.now().getTime() + 60_000) }, clock.now());
    const uses = await Promise.all(Array.from({ length: 4 }, () => store.useToken("h".repeat(64), "reset_password", clock.now())));
    expect(uses.filter((x) => x === u.body.user.id)).toHaveLength(1);
    expect(await store.useToken("h".repeat(64), "verify_email", clock.now())).toBeNull();
  });

  it("sign-up with an address that has an account answers as for a new one; the owner gets a note with a reset link", async () => {
    const owner = await signup();
    const fresh = await post("/auth/signup", { email: email(), password: "another password here" });
    const before = mail.mails.length;
    const again = await post("/auth/signup", { email: owner.email.toUpperCase(), password: "attacker password 1" });
    expect(again.status).toBe(fresh.status);
    expect(await again.json()).toEqual(await fresh.json());
    expect(again.headers.getSetCookie()).toEqual([]);
    // Nothing changed in the account: one user, the owner's password still works, the other does not.
    const [n] = (await api.runtime.dataSource.query(`SELECT count(*)::int AS n FROM web_users WHERE email = $1`, [owner.email])) as { n: number }[];
    expect(n?.n).toBe(1);
    clock.advance(61_000); // past the per-address throttle window
    expect((await post("/auth/login", { email: owner.email, password: "attacker password 1" })).status).toBe(401);
    await expect.poll(() => mail.mails.length).toBe(before + 1);
    const note = mail.mails[mail.mails.length - 1]!;
    expect(note.to).toEqual([owner.email]);
    expect(note.raw).toContain("Someone tried to sign up to svc with your address");
    const link = new URL(mail.link(owner.email, "/auth/password/reset?token="));
    const reset = await post("/auth/password/reset", { token: link.searchParams.get("token"), password: "owner's new password" });
    expect(reset.status, await reset.clone().text()).toBe(200);
    expect((await post("/auth/login", { email: owner.email, password: "owner's new password" })).status).toBe(200);
  });

  it("form posts get pages and redirects, not JSON", async () => {
    const address = email();
    const made = await api.app.request(`${ORIGIN}/auth/signup`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...SAME }, body: new URLSearchParams({ email: address, password: "form password ok" }) });
    expect(made.status).toBe(202);
    expect(await made.text()).toContain("Check your e-mail");
    const res = await api.app.request(`${ORIGIN}/auth/login`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...SAME }, body: new URLSearchParams({ email: address, password: "form password ok" }) });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    const page = await get("/", cookieOf(res), { accept: "text/html" });
    const html = await page.text();
    expect(html).toContain(address);
    // This server has no Stripe configured: the plan section says so instead of offering upgrades.
    expect(html).toContain("Billing is not set up on this server");
    expect(html).not.toContain('data-action="checkout"');
    const bad = await api.app.request(`${ORIGIN}/auth/login`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...SAME }, body: new URLSearchParams({ email: address, password: "wrong wrong wrong" }) });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("content-type")).toContain("text/html");
    expect(await bad.text()).toContain("The e-mail address or the password is wrong.");
  });

  describe("social sign-in (arctic, authorization code with PKCE and state)", () => {
    const start = async (name: string, cookie?: string) => {
      const res = await get(`/auth/oauth/${name}`, cookie);
      expect(res.status).toBe(302);
      return { location: res.headers.get("location")!, cookie: cookieOf(res)! };
    };
    const callback = (url: string, cookie: string | null) => {
      const u = new URL(url);
      return get(`${u.pathname}${u.search}`, cookie);
    };

    it("sends state and an S256 code challenge; keeps only name, e-mail and picture", async () => {
      provider.user = { ...provider.user, id: "5001", email: "octo5001@example.com" };
      const flow = await start("github");
      const auth = new URL(flow.location);
      expect(auth.origin + auth.pathname).toBe(`${provider.origin}/authorize`);
      expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
      expect(auth.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
      expect(auth.searchParams.get("state")).toMatch(/.{20,}/);
      expect(auth.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/oauth/github/callback`);
      const failuresBefore = provider.pkceFailures;
      const done = await callback(provider.authorize(flow.location), flow.cookie);
      expect(done.status, await done.clone().text()).toBe(303);
      expect(provider.pkceFailures).toBe(failuresBefore);
      const session = cookieOf(done)!;
      expect(session).not.toBe(flow.cookie);
      expect(await me(flow.cookie)).toBe(401);
      const user = ((await (await get("/auth/me", session)).json()) as { user: Record<string, unknown> }).user;
      expect(user).toMatchObject({ email: "octo5001@example.com", name: "Octo Cat", picture: "https://avatars.example/octo.png", email_verified: true });
      const [row] = (await api.runtime.dataSource.query(`SELECT * FROM web_users WHERE email = $1`, ["octo5001@example.com"])) as Record<string, unknown>[];
      expect(JSON.stringify(row)).not.toMatch(/Sea|Octo Inc|not to be kept|octo"/);
      // Signing in again finds the same user.
      const again = await start("github");
      const second = await callback(provider.authorize(again.location), again.cookie);
      expect(((await (await get("/auth/me", cookieOf(second))).json()) as { user: { id: string } }).user.id).toBe(user.id);
    });

    it("refuses a callback whose state differs, that comes to another browser, or that is replayed", async () => {
      const flow = await start("github");
      const back = new URL(provider.authorize(flow.location));
      const forged = new URL(back);
      forged.searchParams.set("state", "an-attackers-state-value-xxxxxxxxx");
      expect((await callback(forged.toString(), flow.cookie)).status).toBe(400);
      // The flow ended with that refusal: even the right state is now refused.
      expect((await callback(back.toString(), flow.cookie)).status).toBe(400);
      const flow2 = await start("github");
      const back2 = provider.authorize(flow2.location);
      expect((await callback(back2, null)).status).toBe(400);
      const victim = await signup();
      expect((await callback(back2, victim.cookie)).status).toBe(400);
      const ok = await callback(back2, flow2.cookie);
      expect(ok.status).toBe(303);
      expect((await callback(back2, flow2.cookie)).status).toBe(400);
      // Google's flow must come back to Google's callback.
      const g = await start("google");
      const toGithub = new URL(provider.authorize(g.location));
      toGithub.pathname = "/auth/oauth/github/callback";
      expect((await callback(toGithub.toString(), g.cookie)).status).toBe(400);
    });

    it("the token request carries the PKCE verifier the provider checks against the challenge", async () => {
      const flow = await start("google");
      // A challenge that does not match the stored verifier: the provider refuses the code.
      const tampered = new URL(flow.location);
      tampered.searchParams.set("code_challenge", "A".repeat(43));
      const failures = provider.pkceFailures;
      const res = await callback(provider.authorize(tampered.toString()), flow.cookie);
      expect(res.status).toBe(502);
      expect(provider.pkceFailures).toBe(failures + 1);
      expect(cookieOf(res)).toBe("");
    });

    it("an expired flow is refused", async () => {
      const flow = await start("google");
      clock.advance(11 * 60_000);
      expect((await callback(provider.authorize(flow.location), flow.cookie)).status).toBe(400);
    });
  });
});
