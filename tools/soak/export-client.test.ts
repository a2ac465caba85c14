import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportIsWhole } from "./mix.js";
import { exportClient } from "./support.js";

describe("the soak's export client (answers read on a thread of their own)", () => {
  let server: http.Server;
  let port = 0;
  const client = exportClient();
  const BIG = `id,created_at,x\r\n${"chk_0123456789,2026-11-27T00:00:00.000Z,domain\r\n".repeat(100_000)}`;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/big") return void res.end(BIG);
      if (req.url === "/small") return void res.writeHead(404).end("not here");
      if (req.url === "/key") return void res.end(String(req.headers["x-api-key"] ?? ""));
      if (req.url === "/bytewise") {
        // The body in pieces of a few bytes: the kept head still holds its first 64.
        res.writeHead(200);
        const pieces = BIG.slice(0, 200).match(/.{1,5}/gs) ?? [];
        const step = (): void => void (pieces.length > 0 ? (res.write(pieces.shift()), setTimeout(step, 2)) : res.end("\r\n"));
        return step();
      }
      if (req.url === "/trickle") {
        res.writeHead(200);
        const t = setInterval(() => res.write("x"), 50);
        return void res.on("close", () => clearInterval(t));
      }
      if (req.url === "/never") return;
      // Cut short: headers and part of the body, then the connection is dropped.
      res.writeHead(200, { "content-type": "text/csv" });
      res.write("id,created_at,x\r\nchk_1,");
      setTimeout(() => res.socket?.destroy(), 50);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await client.close();
    await new Promise((r) => server.close(r));
  });

  it("counts a large body's bytes and keeps only its ends", async () => {
    const a = await client.get(port, "/big");
    expect(a.status).toBe(200);
    expect(a.bytes).toBe(Buffer.byteLength(BIG));
    expect(a.body).toBe(`${BIG.slice(0, 64)}…${BIG.slice(-64)}`);
    expect(exportIsWhole(a.body)).toBe(true);
    expect(a.ms).toBeGreaterThan(0);
  });

  it("gives a short body whole, with its status, and sends the soak's key", async () => {
    expect(await client.get(port, "/small")).toMatchObject({ status: 404, body: "not here", bytes: 8 });
    expect((await client.get(port, "/key")).body).toMatch(/^svc_/);
  });

  it("keeps the first 64 bytes of a body that comes in small pieces", async () => {
    const a = await client.get(port, "/bytewise");
    expect(a.body.startsWith(BIG.slice(0, 64))).toBe(true);
    expect(exportIsWhole(a.body)).toBe(true);
  });

  it("limits the whole request, not only the pauses between its pieces", async () => {
    const started = Date.now();
    const a = await client.get(port, "/trickle", 500);
    expect(a.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("answers every request, waiting or new, with status 0 once its thread is gone", async () => {
    const other = exportClient();
    const waiting = other.get(port, "/never");
    await new Promise((r) => setTimeout(r, 100));
    await other.close();
    expect(await waiting).toMatchObject({ status: 0 });
    expect(await other.get(port, "/small")).toMatchObject({ status: 0 });
  });

  it("an answer cut short is not a whole export", async () => {
    const a = await client.get(port, "/cut");
    expect(a.status === 0 || !exportIsWhole(a.body)).toBe(true);
    expect(exportIsWhole("id,created_at,x\r\nchk_1,")).toBe(false);
  });
});
