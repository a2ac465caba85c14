// The baseline for the API benchmark: a bare Hono app on @hono/node-server with one POST route that
// validates `{ entity_value: string }` with zod 4 (through @hono/zod-validator, the validator that
// @hono/zod-openapi uses in the real API) and replies JSON. No database, no screening.
//   PORT=8090 node --import tsx tools/bench/api/baseline-server.ts
import { serve } from "@hono/node-server";
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { z } from "zod";

const ScreenBody = z.object({ entity_value: z.string().min(1).max(2048) });

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
app.post("/v1/screen", zValidator("json", ScreenBody), (c) => {
  const { entity_value } = c.req.valid("json");
  return c.json({ entity_value, risk_level: "low" });
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8090), hostname: process.env.HOST ?? "127.0.0.1" });
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
