import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { SMTPServer } from "smtp-server";

/**
 * Test doubles of the outside services the dashboard talks to, speaking their real wire
 * formats on 127.0.0.1: an SMTP sink, and an OAuth 2 provider (GitHub- and Google-shaped).
 */

export interface CapturedMail {
  readonly to: string[];
  readonly raw: string;
}

export interface SmtpSink {
  readonly url: string;
  readonly mails: CapturedMail[];
  /** The first `http(s)://…` link in the latest mail to `to` whose path starts with `path`. */
  link(to: string, path: string): string;
  close(): Promise<void>;
}

export async function smtpSink(): Promise<SmtpSink> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    link(to, path) {
      const mail = [...mails].reverse().find((m) => m.to.includes(to));
      if (!mail) throw new Error(`no mail to ${to}`);
      // Quoted-printable soft line breaks and =3D are undone before looking.
      const text = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
      const m = new RegExp(`https?://[^\\s]+${path.replace(/[/?]/g, "\\$&")}[^\\s]*`).exec(text);
      if (!m) throw new Error(`no ${path} link in the mail to ${to}`);
      return m[0];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface FakeOAuthUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly picture: string;
  readonly login?: string;
  readonly emailVerified?: boolean;
  /** Extra profile fields a real provider sends and svc must not keep. */
  readonly extra?: Record<string, unknown>;
}

export interface FakeOAuthProvider {
  readonly origin: string;
  /** Who signs in at the next authorization (the test's "user at the provider"). */
  user: FakeOAuthUser;
  /** Token requests refused for a wrong code_verifier (the PKCE check). */
  readonly pkceFailures: number;
  readonly tokenRequests: number;
  /**
   * What the provider's consent screen does: takes the authorization URL svc redirected to and
   * returns the callback URL (with code and state) the browser is sent back to.
   */
  authorize(authorizationUrl: string): string;
  close(): Promise<void>;
}

const s256 = (v: string) => createHash("sha256").update(v).digest("base64url");

export async function fakeOAuthProvider(user: FakeOAuthUser): Promise<FakeOAuthProvider> {
  const codes = new Map<string, { challenge: string; method: string; redirectUri: string; clientId: string; user: FakeOAuthUser }>();
  const tokens = new Map<string, FakeOAuthUser>();
  let pkceFailures = 0;
  let tokenRequests = 0;
  const self = {
    origin: "",
    user,
    get pkceFailures() { return pkceFailures; },
    get tokenRequests() { return tokenRequests; },
    authorize(authorizationUrl: string): string {
      const u = new URL(authorizationUrl);
      const q = u.searchParams;
      if (q.get("response_type") !== "code") throw new Error("response_type must be code");
      const code = randomBytes(12).toString("hex");
      codes.set(code, { challenge: q.get("code_challenge") ?? "", method: q.get("code_challenge_method") ?? "", redirectUri: q.get("redirect_uri") ?? "", clientId: q.get("client_id") ?? "", user: self.user });
      const back = new URL(q.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      return back.toString();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies FakeOAuthProvider & { origin: string };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "POST" && url.pathname === "/token") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        tokenRequests++;
        const p = new URLSearchParams(body);
        const grant = codes.get(p.get("code") ?? "");
        const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
        if (!grant || p.get("grant_type") !== "authorization_code" || p.get("redirect_uri") !== grant.redirectUri || !basic.startsWith(`${grant.clientId}:`)) return json(400, { error: "invalid_grant" });
        codes.delete(p.get("code") ?? "");
        const verifier = p.get("code_verifier") ?? "";
        if (grant.method !== "S256" || s256(verifier) !== grant.challenge) {
          pkceFailures++;
          return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" });
        }
        const token = randomBytes(16).toString("hex");
        tokens.set(token, grant.user);
        json(200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
      });
      return;
    }
    const who = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!who) return json(401, { message: "Bad credentials" });
    if (url.pathname === "/user") return json(200, { id: Number(who.id), login: who.login ?? "octo", name: who.name, avatar_url: who.picture, ...who.extra });
    if (url.pathname === "/user/emails") return json(200, [{ email: `other-${who.email}`, primary: false, verified: true }, { email: who.email, primary: true, verified: who.emailVerified ?? true }]);
    if (url.pathname === "/userinfo") return json(200, { sub: who.id, email: who.email, email_verified: who.emailVerified ?? true, name: who.name, picture: who.picture, ...who.extra });
    json(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  self.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return self;
}

/** The environment that points svc's GitHub and Google sign-in at a fake provider. */
export const oauthEnv = (origin: string): Record<string, string> => ({
  SVC_GITHUB_CLIENT_ID: "gh-client", SVC_GITHUB_CLIENT_SECRET: "gh-secret",
  SVC_GITHUB_AUTHORIZE_URL: `${origin}/authorize`, SVC_GITHUB_TOKEN_URL: `${origin}/token`, SVC_GITHUB_API_URL: origin,
  SVC_GOOGLE_CLIENT_ID: "g-client", SVC_GOOGLE_CLIENT_SECRET: "g-secret",
  SVC_GOOGLE_AUTHORIZE_URL: `${origin}/authorize`, SVC_GOOGLE_TOKEN_URL: `${origin}/token`, SVC_GOOGLE_USERINFO_URL: `${origin}/userinfo`,
});
