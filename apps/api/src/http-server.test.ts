import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { expect, it } from "vitest";
import { KEEP_ALIVE_MS, tuneHttpServer } from "./http-server.js";

it("keeps an idle keep-alive connection open past Node's 5 s default, so a client reusing it is answered", { timeout: 20_000 }, async () => {
  const app = new Hono().get("/", (c) => c.text("ok"));
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  tuneHttpServer(server);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () => new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
    });
    req.on("error", reject);
  });
  try {
    const first = await get();
    await new Promise((r) => setTimeout(r, 6_000));
    const second = await get();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.socket).toBe(first.socket); // the same connection, reused after 6 idle seconds
    expect((server as http.Server).keepAliveTimeout).toBe(KEEP_ALIVE_MS);
  } finally {
    agent.destroy();
    server.close();
  }
});
