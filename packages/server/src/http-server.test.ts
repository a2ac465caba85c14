import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { expect, it } from "vitest";
import { drainHttpServer, KEEP_ALIVE_MS, tuneHttpServer } from "./http-server.js";

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

const listen = async (app: Hono) => {
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as http.Server;
  tuneHttpServer(server);
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port };
};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const request = (port: number, path: string, agent?: http.Agent) => new Promise<Answer>((resolve, reject) => {
  const req = http.get({ host: "127.0.0.1", port, path, ...(agent ? { agent } : { agent: false }) }, (res) => {
    let body = "";
    res.setEncoding("utf8").on("data", (d: string) => (body += d));
    res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    res.on("error", reject);
  });
  req.on("error", reject);
});

it("answers a URL over the 16 KB header limit with a problem+json 431, and malformed HTTP with a problem+json 400", async () => {
  const { server, port } = await listen(new Hono().get("*", (c) => c.text("ok")));
  try {
    const long = await request(port, `/v1/history?cursor=${"a".repeat(20_000)}`);
    expect(long.status).toBe(431);
    expect(long.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(long.body)).toMatchObject({ status: 431, code: "request.header_too_large", type: "https://svc.dev/problems/request.header_too_large" });
    const socket = net.connect(port, "127.0.0.1");
    socket.end("NOT HTTP AT ALL\r\n\r\n");
    const raw = await new Promise<string>((resolve) => {
      let got = "";
      socket.setEncoding("utf8").on("data", (d: string) => (got += d)).on("close", () => resolve(got));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw).toContain("content-type: application/problem+json");
    expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))).toMatchObject({ status: 400, code: "request.malformed" });
    expect((await request(port, "/short")).status).toBe(200); // the server is unharmed
  } finally {
    server.close();
  }
});

it("drains: requests in flight are answered (Connection: close), idle keep-alive connections closed, then new connections refused", { timeout: 20_000 }, async () => {
  let started = 0;
  const app = new Hono().get("/slow", async (c) => {
    started++;
    await new Promise((r) => setTimeout(r, 300));
    return c.json({ ok: true, n: started });
  });
  const { server, port } = await listen(app);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  try {
    // A keep-alive connection left idle, then 30 requests in flight (10 on keep-alive connections).
    expect((await request(port, "/slow", agent)).status).toBe(200);
    const inFlight = [
      ...Array.from({ length: 20 }, () => request(port, "/slow")),
      ...Array.from({ length: 10 }, () => request(port, "/slow", agent)),
    ];
    while (started < 31) await new Promise((r) => setTimeout(r, 5));
    const drained = drainHttpServer(server, 10_000);
    // Right after the drain began: still accepted (its connection may already be queued) and answered.
    inFlight.push(request(port, "/slow"));
    while (server.listening) await new Promise((r) => setTimeout(r, 5));
    const refused = await request(port, "/slow").then(() => "answered", (e: NodeJS.ErrnoException) => e.code);
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 31 }, () => 200));
    expect(answers.every((a) => a.headers.connection === "close" && (JSON.parse(a.body) as { ok: boolean }).ok)).toBe(true);
    expect(refused).toBe("ECONNREFUSED");
    expect(await drained).toBe(true);
  } finally {
    agent.destroy();
    server.closeAllConnections();
  }
});

it("drain answers a request that comes after it stopped taking new work 503 server.shutting_down, and keeps listening until the work in flight is done", { timeout: 20_000 }, async () => {
  let started = 0;
  const app = new Hono().get("/slow", async (c) => {
    started++;
    await new Promise((r) => setTimeout(r, 1_500));
    return c.json({ ok: true });
  });
  const { server, port } = await listen(app);
  try {
    const running = request(port, "/slow");
    while (started < 1) await new Promise((r) => setTimeout(r, 5));
    const drained = drainHttpServer(server, 10_000);
    // Past the quiet period, while the first request still runs: the listener is open, new work is refused by answer.
    await new Promise((r) => setTimeout(r, 700));
    expect(server.listening).toBe(true);
    const late = await request(port, "/slow");
    expect(late.status).toBe(503);
    expect(late.headers["retry-after"]).toBe("1");
    expect(late.headers["content-type"]).toContain("application/problem+json");
    expect(JSON.parse(late.body)).toMatchObject({ code: "server.shutting_down", retryable: true });
    expect(started).toBe(1);
    expect((await running).status).toBe(200);
    expect(await drained).toBe(true);
    expect(server.listening).toBe(false);
  } finally {
    server.closeAllConnections();
  }
});

it("drain cuts requests still running after the grace period", { timeout: 10_000 }, async () => {
  const { server, port } = await listen(new Hono().get("/stuck", () => new Promise<Response>(() => undefined)));
  const stuck = request(port, "/stuck").then(() => "answered", (e: NodeJS.ErrnoException) => e.code);
  await new Promise((r) => setTimeout(r, 100));
  expect(await drainHttpServer(server, 200)).toBe(false);
  expect(await stuck).toBe("ECONNRESET");
});
