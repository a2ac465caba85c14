import { generateKeyPairSync, sign } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { ManualClock } from "@svc/bot-kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInteractionsEndpoint, SIGNATURE_WINDOW_SECONDS } from "./interactions-endpoint.js";

const { publicKey, privateKey } = generateKeyPairSync("ed25519");
/** The raw 32-byte key as the Developer Portal shows it: the tail of the SPKI DER export. */
const PUBLIC_HEX = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex");
const other = generateKeyPairSync("ed25519").privateKey;

describe("HTTP interactions endpoint (Ed25519)", () => {
  const clock = new ManualClock("2026-03-02T09:00:00.000Z");
  const handled: unknown[] = [];
  let server: ServerType;
  let url: string;

  beforeAll(async () => {
    const app = createInteractionsEndpoint({
      publicKey: PUBLIC_HEX,
      path: "/discord/interactions",
      clock,
      handle: async (i) => {
        handled.push(i);
        return i.type === 1 ? { type: 1 } : { type: 5, data: { flags: 64 } };
      },
    });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/discord/interactions`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const now = () => String(Math.floor(clock.now().getTime() / 1000));
  const post = (body: string, ts = now(), key = privateKey, sig?: string) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Signature-Timestamp": ts, "X-Signature-Ed25519": sig ?? sign(null, Buffer.from(ts + body), key).toString("hex") },
      body,
    });

  it("answers a signed PING with PONG", async () => {
    const r = await post(JSON.stringify({ id: "1", type: 1, application_id: "2", token: "t", version: 1 }));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ type: 1 });
  });

  it("refuses a bad signature, another key, a tampered body, a missing header and a stale timestamp with 401", async () => {
    const body = JSON.stringify({ id: "2", type: 1 });
    const before = handled.length;
    expect((await post(body, now(), other)).status).toBe(401);
    expect((await post(body, now(), privateKey, "00".repeat(64))).status).toBe(401);
    const ts = now();
    const sig = sign(null, Buffer.from(ts + body), privateKey).toString("hex");
    expect((await post(body.replace("2", "3"), ts, privateKey, sig)).status).toBe(401);
    expect((await fetch(url, { method: "POST", body })).status).toBe(401);
    expect((await post(body, String(Number(now()) - SIGNATURE_WINDOW_SECONDS - 1))).status).toBe(401);
    expect(handled.length).toBe(before);
  });

  it("refuses a replay of a request it already accepted", async () => {
    const body = JSON.stringify({ id: "4", type: 2, data: { type: 1, name: "monitor" } });
    const ts = now();
    const sig = sign(null, Buffer.from(ts + body), privateKey).toString("hex");
    expect((await post(body, ts, privateKey, sig)).status).toBe(200);
    expect((await post(body, ts, privateKey, sig)).status).toBe(401);
  });
});
