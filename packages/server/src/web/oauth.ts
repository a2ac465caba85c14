import type { Config } from "@svc/runtime";

type Arctic = typeof import("arctic");

/** What is kept from a social provider: who it is there, and name, e-mail and picture. */
export interface SocialProfile {
  readonly subject: string;
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly name: string | null;
  readonly picture: string | null;
}

export interface OAuthProvider {
  readonly name: "github" | "google";
  readonly label: string;
  /** A new random `state` and PKCE code verifier for one sign-in (arctic's generators). */
  newFlow(): { readonly state: string; readonly codeVerifier: string };
  authorizationUrl(redirectUri: string, state: string, codeVerifier: string): URL;
  /** Exchanges the code (with the PKCE verifier) and reads the profile. */
  profile(redirectUri: string, code: string, codeVerifier: string): Promise<SocialProfile>;
}

async function getJson(url: string, accessToken: string): Promise<unknown> {
  const r = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json", "user-agent": "svc" }, signal: AbortSignal.timeout(10_000) });
  if (!r.ok) throw new Error(`profile request answered ${r.status}`);
  return r.json();
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v.slice(0, 512) : null);

/** Both providers through arctic's generic client: authorization code with PKCE (S256) and state. */
function provider(arctic: Arctic, name: "github" | "google", label: string, id: string, secret: string, authorizeUrl: string, tokenUrl: string, scopes: string[], read: (token: string) => Promise<SocialProfile>): OAuthProvider {
  return {
    name, label,
    newFlow: () => ({ state: arctic.generateState(), codeVerifier: arctic.generateCodeVerifier() }),
    authorizationUrl: (redirectUri, state, verifier) => new arctic.OAuth2Client(id, secret, redirectUri).createAuthorizationURLWithPKCE(authorizeUrl, state, arctic.CodeChallengeMethod.S256, verifier, scopes),
    async profile(redirectUri, code, verifier) {
      const tokens = await new arctic.OAuth2Client(id, secret, redirectUri).validateAuthorizationCode(tokenUrl, code, verifier);
      return read(tokens.accessToken());
    },
  };
}

/** The configured providers; arctic is imported only when there is one (docs/decisions/0091). */
export async function oauthProviders(config: Config): Promise<Map<string, OAuthProvider>> {
  const out = new Map<string, OAuthProvider>();
  const github = Boolean(config.SVC_GITHUB_CLIENT_ID && config.SVC_GITHUB_CLIENT_SECRET);
  const google = Boolean(config.SVC_GOOGLE_CLIENT_ID && config.SVC_GOOGLE_CLIENT_SECRET);
  if (!github && !google) return out;
  const arctic = await import("arctic");
  if (config.SVC_GITHUB_CLIENT_ID && config.SVC_GITHUB_CLIENT_SECRET) {
    const api = config.SVC_GITHUB_API_URL.replace(/\/$/, "");
    out.set("github", provider(arctic, "github", "GitHub", config.SVC_GITHUB_CLIENT_ID, config.SVC_GITHUB_CLIENT_SECRET, config.SVC_GITHUB_AUTHORIZE_URL, config.SVC_GITHUB_TOKEN_URL, ["read:user", "user:email"], async (token) => {
      const user = (await getJson(`${api}/user`, token)) as Record<string, unknown>;
      const emails = (await getJson(`${api}/user/emails`, token).catch(() => [])) as { email?: unknown; primary?: unknown; verified?: unknown }[];
      const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true && e.verified === true) : undefined;
      const subject = typeof user.id === "number" || typeof user.id === "string" ? String(user.id) : null;
      if (!subject) throw new Error("GitHub profile has no id");
      return { subject, email: str(primary?.email), emailVerified: primary !== undefined, name: str(user.name) ?? str(user.login), picture: str(user.avatar_url) };
    }));
  }
  if (config.SVC_GOOGLE_CLIENT_ID && config.SVC_GOOGLE_CLIENT_SECRET) {
    out.set("google", provider(arctic, "google", "Google", config.SVC_GOOGLE_CLIENT_ID, config.SVC_GOOGLE_CLIENT_SECRET, config.SVC_GOOGLE_AUTHORIZE_URL, config.SVC_GOOGLE_TOKEN_URL, ["openid", "email", "profile"], async (token) => {
      const u = (await getJson(config.SVC_GOOGLE_USERINFO_URL, token)) as Record<string, unknown>;
      const subject = str(u.sub);
      if (!subject) throw new Error("Google profile has no sub");
      return { subject, email: str(u.email), emailVerified: u.email_verified === true, name: str(u.name), picture: str(u.picture) };
    }));
  }
  return out;
}
