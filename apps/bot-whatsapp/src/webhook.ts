import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Logger } from "pino";
import type { WhatsAppAPI } from "whatsapp-api-js";
import type { WhatsAppApp } from "./bot.js";
import { readDelivery } from "./payload.js";

export const SIGNATURE_HEADER = "X-Hub-Signature-256";

export interface WebhookOptions {
  readonly path: string;
  readonly maxBodyBytes: number;
  readonly log: Logger;
}

const problem = (status: 400 | 401 | 403 | 413, code: string, detail: string) =>
  new Response(JSON.stringify({ type: "about:blank", title: code, status, code, detail }), { status, headers: { "content-type": "application/problem+json" } });

/**
 * The Cloud API webhook. GET answers Meta's verification challenge. POST reads the raw body
 * (bounded), checks `X-Hub-Signature-256` (HMAC-SHA256 with the app secret, via
 * whatsapp-api-js) on exactly those bytes before anything is parsed: a missing or wrong
 * signature is 401 and changes nothing. A signed delivery is answered 200 once its events are
 * handled (Meta redelivers what is not acknowledged; duplicates are dropped by message id).
 */
export function createWebhookApp(api: WhatsAppAPI, app: WhatsAppApp, o: WebhookOptions): Hono {
  const web = new Hono();
  web.get("/healthz", (c) => c.json({ status: "ok" }));

  web.get(o.path, (c) => {
    const q = c.req.query();
    const mode = q["hub.mode"];
    const token = q["hub.verify_token"];
    const challenge = q["hub.challenge"];
    if (!mode || !token || challenge === undefined) return problem(400, "webhook.bad_verification_request", "hub.mode, hub.verify_token and hub.challenge are required");
    try {
      return c.text(api.get({ "hub.mode": mode as "subscribe", "hub.verify_token": token, "hub.challenge": challenge }));
    } catch {
      return problem(403, "webhook.verify_token_mismatch", "The verify token does not match this bot's WHATSAPP_VERIFY_TOKEN");
    }
  });

  web.post(
    o.path,
    bodyLimit({ maxSize: o.maxBodyBytes, onError: () => problem(413, "webhook.payload_too_large", `Bodies above ${o.maxBodyBytes} bytes are refused`) }),
    async (c) => {
      const signature = c.req.header(SIGNATURE_HEADER);
      if (!signature) return problem(401, "webhook.signature_missing", `${SIGNATURE_HEADER} is required`);
      const raw = new TextDecoder().decode(await c.req.arrayBuffer());
      if (!(await api.verifyRequestSignature(raw, signature))) return problem(401, "webhook.signature_invalid", `${SIGNATURE_HEADER} does not match the body`);
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return problem(400, "webhook.malformed_json", "The body is not JSON");
      }
      const delivery = readDelivery(json);
      if (!delivery.ok) return problem(400, "webhook.unexpected_payload", delivery.reason);
      const results = { handled: 0, duplicate: 0, ignored: 0, failed: 0 };
      for (const e of delivery.events) results[await app.handle(e)]++;
      if (results.failed > 0 || results.duplicate > 0) o.log.info(results, "whatsapp delivery");
      // Failed events are logged, not redelivered: a retry would repeat whatever already happened.
      return c.json({ ok: true, ...results });
    },
  );
  return web;
}
