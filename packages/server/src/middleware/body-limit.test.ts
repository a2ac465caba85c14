import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimit } from "./body-limit.js";

const LIMIT = 1_000;

/** Real HTTP on 127.0.0.1: the body limit in front of a handler that echoes the parsed JSON's size. */
describe("bodyLimit", () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    const app = new Hono();
    app.use("*", bodyLimit({ maxSize: LIMIT, onError: (c) => c.json({ code: "request.too_large" }, 413) }));
    app.post("/echo", async (c) => c.json({ length: JSON.stringify(await c.req.json()).length }));
    app.get("/echo", (c) => c.json({ ok: true }));
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as http.Server;
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => void server.close());

  /** POSTs `body` with Content-Length, or chunked (no Content-Length) when `chunked`. */
  const post = (body: string, chunked: boolean) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/json", ...(chunked ? {} : { "content-length": String(Buffer.byteLength(body)) }) };
    const req = http.request({ host: "127.0.0.1", port, path: "/echo", method: "POST", headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    // A write error is expected when the server answers 413 before reading everything.
    req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
    if (chunked) {
      // Several chunks, so the length is known only once they are read.
      for (let i = 0; i < body.length; i += 100) req.write(body.slice(i, i + 100));
      req.end();
    } else req.end(body);
  });
  const json = (n: number) => JSON.stringify({ v: "x".repeat(n - 8) });

  for (const chunked of [false, true]) {
    const how = chunked ? "chunked" : "with Content-Length";
    it(`passes a body at the limit (${how}) to the handler, parsed`, async () => {
      const r = await post(json(LIMIT), chunked);
      expect(r).toEqual({ status: 200, body: JSON.stringify({ length: LIMIT }) });
    });
    it(`refuses a body one byte over the limit (${how}) before the handler`, async () => {
      const r = await post(json(LIMIT + 1), chunked);
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body)).toEqual({ code: "request.too_large" });
    });
  }

  it("lets a GET through", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, path: "/echo", agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject);
    });
    expect(status).toBe(200);
  });
});
