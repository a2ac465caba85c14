import { randomBytes } from "node:crypto";
import type { WebClient } from "@slack/web-api";
import type { Clock } from "@svc/bot-kernel";
import type { TypeOrmSlackInstallations } from "@svc/persistence";
import type { Hono } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { html } from "hono/html";
import type { Installations } from "./installations.js";
import { platformError } from "./slack-chat-port.js";

/** What the bot needs: commands, post warnings, read messages where it is, join public channels, read names. */
export const BOT_SCOPES = ["commands", "chat:write", "channels:history", "groups:history", "im:history", "mpim:history", "channels:join", "users:read"] as const;

const STATE_TTL_MS = 10 * 60_000;
const COOKIE = "svc_slack_state";

export interface OAuthFlowDeps {
  readonly client: WebClient;
  readonly installations: Installations;
  readonly states: Pick<TypeOrmSlackInstallations, "addState" | "consumeState">;
  readonly clock: Clock;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizeUrl: string;
  /** Registered redirect URL; when absent Slack uses the app's only one. */
  readonly redirectUrl?: string;
  readonly installPath?: string;
  readonly redirectPath?: string;
}

/**
 * "Add to Slack" (OAuth v2). `GET /slack/install` makes a random single-use `state` (stored,
 * ten minutes) and binds it to the browser with an httpOnly cookie, then sends the user to Slack.
 * `GET /slack/oauth_redirect` accepts only a state that is stored, unexpired, unused and equal
 * to the cookie's, exchanges the code (`oauth.v2.access`) and stores the bot token sealed.
 */
export class OAuthFlow {
  constructor(private readonly deps: OAuthFlowDeps) {}

  mount(app: Hono): void {
    const d = this.deps;
    const secure = (d.redirectUrl ?? "").startsWith("https:");
    app.get(d.installPath ?? "/slack/install", async (c) => {
      const state = randomBytes(32).toString("base64url");
      await d.states.addState(state, new Date(d.clock.now().getTime() + STATE_TTL_MS));
      setCookie(c, COOKIE, state, { httpOnly: true, secure, sameSite: "Lax", path: "/slack", maxAge: STATE_TTL_MS / 1000 });
      const u = new URL(d.authorizeUrl);
      u.searchParams.set("client_id", d.clientId);
      u.searchParams.set("scope", BOT_SCOPES.join(","));
      u.searchParams.set("state", state);
      if (d.redirectUrl) u.searchParams.set("redirect_uri", d.redirectUrl);
      return c.redirect(u.toString(), 302);
    });

    app.get(d.redirectPath ?? "/slack/oauth_redirect", async (c) => {
      const page = (status: 200 | 400 | 502, title: string, message: string) =>
        c.html(html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${message}</p></body></html>`, status);
      const cookie = getCookie(c, COOKIE);
      deleteCookie(c, COOKIE, { path: "/slack" });
      if (c.req.query("error")) return page(400, "Install cancelled", "svc was not added to your workspace. You can start again from the install link.");
      const code = c.req.query("code");
      const state = c.req.query("state");
      if (!code || !state || code.length > 512 || state.length > 128) return page(400, "Install failed", "The link Slack sent you back with is incomplete. Start again from the install link.");
      if (!cookie || cookie !== state) return page(400, "Install failed", "This install was started in another browser or has expired. Start again from the install link.");
      if (!(await d.states.consumeState(state, d.clock.now()))) return page(400, "Install failed", "This install link has expired or was already used. Start again from the install link.");
      let r: Awaited<ReturnType<WebClient["oauth"]["v2"]["access"]>>;
      try {
        r = await d.client.oauth.v2.access({ client_id: d.clientId, client_secret: d.clientSecret, code, ...(d.redirectUrl ? { redirect_uri: d.redirectUrl } : {}) });
      } catch (e) {
        const err = platformError(e);
        if (err === null) return page(502, "Install failed", "Slack could not be reached to finish the install. Please try again.");
        return page(400, "Install failed", `Slack refused the install (${err}). Start again from the install link.`);
      }
      const teamId = r.team?.id;
      if (r.token_type !== "bot" || !r.access_token?.startsWith("xoxb-") || !teamId || !r.bot_user_id) {
        return page(502, "Install failed", "Slack answered without a bot token. Please try again.");
      }
      // oauth.v2.access does not name the bot id; auth.test does (used to recognise our own posts).
      const botId = await d.client.auth
        .test({ token: r.access_token })
        .then((a) => a.bot_id ?? null)
        .catch(() => null);
      await d.installations.save({
        teamId,
        enterpriseId: r.enterprise?.id ?? null,
        botToken: r.access_token,
        botUserId: r.bot_user_id,
        botId,
        installedBy: r.authed_user?.id ?? null,
        scopes: r.scope ?? "",
      });
      return page(200, "svc is installed", `svc is now in ${r.team?.name ?? "your workspace"}. Invite it to a channel (/invite @svc), bind your Pro plan with /svc-connect <api_key>, then run /svc-monitor.`);
    });
  }
}
