import { OpenAPIHono } from "@hono/zod-openapi";
import type { ScreenRequestBody } from "@svc/contracts";
import { InvalidCursorError, checkCoversEntity, openCursor, parseEntity, screenBatch, sealCursor, serialisedOnce, syncReportedWith, type RiskLevel, type Screened, type Verdict } from "@svc/core";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { auditExportCsv } from "./audit-export.js";
import { record, runCheck } from "./checks.js";
import { idempotent } from "./idempotency.js";
import { callerOf } from "./middleware/auth.js";
import { authenticateKeyOrSession } from "./web/session.js";
import { registerAuthRoutes } from "./web/auth-routes.js";
import { registerDashboardRoutes } from "./web/dashboard-routes.js";
import { bodyLimit } from "./middleware/body-limit.js";
import { jsonBody } from "./middleware/json-body.js";
import { charged, rateLimitHeaders } from "./middleware/rate-limit.js";
import { requestId, requestIdOf } from "./middleware/request-id.js";
import { httpMetrics, metricsRoute } from "./middleware/metrics.js";
import { routeGuard } from "./middleware/route-guard.js";
import { withBearerAlternative } from "./openapi-doc.js";
import { safeParams } from "./middleware/safe-params.js";
import { isDatabaseUnavailable } from "@svc/persistence";
import { ApiProblem, entityProblem, problem, problemResponse, validationProblem } from "./problem.js";
import { auditRoute, batchRoute, exportRoute, graphRoute, historyRoute, reportRoute, screenRoute } from "./routes/definitions.js";
import { registerAsyncRoutes } from "./routes/async.js";
import { plainScreenBody } from "./routes/screen-input.js";
import { registerUsageRoutes } from "./routes/usage.js";
import { registerKeyRoutes } from "./routes/keys.js";
import { registerReportRoutes } from "./routes/reports.js";
import { registerHomeRoutes } from "./routes/home.js";
import { registerAuditVerifyRoutes } from "./routes/audit-verify.js";
import { registerBillingRoutes, registerStripeWebhook } from "./routes/billing.js";
import { registerAccountRoutes } from "./routes/account.js";
import { registerReviewRoutes } from "./routes/reviews.js";
import { registerSupportRoutes } from "./routes/support.js";
import { registerPrivacyRoute } from "./routes/privacy.js";
import { processorProblem } from "./billing/stripe-billing.js";
import type { ApiServices } from "./services.js";

/** The answer of POST /v1/screen/batch, as the route builds it. */
interface BatchAnswer {
  readonly results: readonly ({ readonly index: number; readonly status: "ok"; readonly result: Verdict } | { readonly index: number; readonly status: "error"; readonly error: unknown })[];
  readonly summary: unknown;
}

/** Retry-After on a 503 while the database is unreachable (the pool reconnects on the next request). */
const RETRY_AFTER_SECONDS = 2;

export function createApp(s: ApiServices): OpenAPIHono {
  const app = new OpenAPIHono({
    defaultHook: (result) => {
      if (!result.success) throw problem(validationProblem(result.error.issues));
    },
  });

  app.use("*", requestId(() => s.ids.next("req")));
  app.use("*", httpMetrics());
  app.onError((err, c) => {
    if (err instanceof ApiProblem) return problemResponse(c, err.init);
    const processor = processorProblem(err);
    if (processor) {
      s.logger.error({ err, request_id: requestIdOf(c) }, "payment processor error");
      return problemResponse(c, processor);
    }
    if (err instanceof InvalidCursorError) return problemResponse(c, { status: 422, code: "request.invalid_cursor", title: "Invalid cursor", detail: "This cursor was not issued by this API to this account, or it was modified; start from the first page." });
    if (err instanceof HTTPException && err.status < 500) return problemResponse(c, { status: err.status, code: `http.${err.status}`, title: "Bad request", detail: err.message });
    // The database is down, restarting or unreachable: retryable, and the pool reconnects by itself.
    if (isDatabaseUnavailable(err)) {
      s.logger.warn({ err, request_id: requestIdOf(c) }, "database unavailable");
      return problemResponse(c, { status: 503, code: "service.unavailable", title: "Service unavailable", detail: "The database is not answering right now; retry in a few seconds (with the same Idempotency-Key, if any).", retryable: true, headers: { "retry-after": String(RETRY_AFTER_SECONDS) } });
    }
    // Never leak a stack trace or SQL to the client; the request id ties the log line to the answer.
    s.logger.error({ err, request_id: requestIdOf(c) }, "unhandled error");
    return problemResponse(c, { status: 500, code: "internal", title: "Internal error", detail: "Something went wrong on our side; the request id identifies it in our logs.", retryable: true });
  });
  app.notFound((c) => problemResponse(c, { status: 404, code: "not_found", title: "Not found", detail: `No route ${c.req.method} ${c.req.path}.` }));

  app.use("*", async (c, next) => {
    if (!s.logger.isLevelEnabled("info")) return next();
    const started = performance.now();
    await next();
    // Logs carry method, path, status and key id — never the key, never request bodies. A probe
    // that passes (an orchestrator asks every few seconds) is a debug line; one that fails is not.
    const line = { request_id: requestIdOf(c), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started), key_id: (c.get("caller" as never) as { keyId?: string } | undefined)?.keyId };
    if (c.res.status < 400 && (c.req.path === "/healthz" || c.req.path === "/readyz")) s.logger.debug(line, "request");
    else s.logger.info(line, "request");
  });

  app.use("*", routeGuard(app));
  // Embedded mode with its disk nearly full: refuse writes with a clear answer instead of letting
  // the database block on them; reads go on (decision 0046).
  if (s.diskSpace) {
    const disk = s.diskSpace;
    app.use("*", async (c, next) => {
      if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
      const short = disk.shortage();
      if (!short) return next();
      return problemResponse(c, {
        status: 507, code: "storage.full", title: "Storage full",
        detail: `The server's data directory has ${Math.floor(short.freeBytes / 1048576)} MB free, under the ${Math.floor(disk.minFreeBytes / 1048576)} MB it keeps in reserve; it accepts no writes until space is freed. Reads still work.`,
        retryable: true, headers: { "retry-after": "60" },
      });
    });
  }
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/metrics", ...metricsRoute(s));
  app.get("/readyz", async (c) => ((await s.ready().catch(() => false)) ? c.json({ status: "ready" }) : problemResponse(c, { status: 503, code: "not_ready", title: "Not ready", detail: "The database is not answering." })));
  app.get("/v1/openapi.json", (c) => c.json(withBearerAlternative(app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "svc API", version: "1.0.0", description: "Entity risk screening. Results are automated risk indicators for information only." } }))));
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-API-Key" });
  app.openAPIRegistry.registerComponent("securitySchemes", "Bearer", { type: "http", scheme: "bearer", description: "The same API key as `X-API-Key`, sent as `Authorization: Bearer <key>`." });
  app.openAPIRegistry.registerComponent("securitySchemes", "Session", { type: "apiKey", in: "cookie", name: "svc_session", description: "The dashboard's session cookie (set by `/auth/login`, a password reset and social sign-in). Acts on the signed-in user's own account; writes must come from this site (`Origin` / `Sec-Fetch-Site`)." });
  registerHomeRoutes(app, s);
  registerAuthRoutes(app, s);
  registerDashboardRoutes(app, s);
  registerPrivacyRoute(app);
  // Stripe signs the raw body and sends no API key: before authentication and JSON parsing.
  registerStripeWebhook(app, s);

  const authenticateV1 = authenticateKeyOrSession(s);
  app.use("/v1/*", async (c, next) => (c.req.path === "/v1/openapi.json" ? next() : authenticateV1(c, next)));
  app.use("/v1/*", rateLimitHeaders(s));
  app.use("/v1/*", bodyLimit({
    maxSize: s.bodyLimitBytes,
    onError: (c) => problemResponse(c, { status: 413, code: "request.too_large", title: "Body too large", detail: `Request bodies are limited to ${s.bodyLimitBytes} bytes.` }),
  }));
  app.use("/v1/*", jsonBody());
  app.use("/v1/*", safeParams());

  // A verdict's JSON was made once when its audit record was sealed: the response reuses that text.
  const respond = (c: Context, r: { status: number; body: unknown }) => {
    const text = serialisedOnce(r.body);
    return text === undefined ? c.json(r.body as never, r.status as never) : (c.body(text, r.status as never, { "content-type": "application/json" }) as never);
  };

  /**
   * A batch's answer: each verdict in the text its audit record was sealed with (as a single check
   * answers it) rather than serialised again, a batch of 100 being some 400 KB of verdicts. A
   * verdict read back from the database (a retry's earlier checks) is serialised here.
   */
  const respondBatch = (c: Context, r: { status: number; body: unknown }) => {
    const body = r.body as BatchAnswer | null;
    if (r.status !== 200 || body === null || typeof body !== "object" || !Array.isArray(body.results)) return respond(c, r);
    const items = body.results.map((x) => (x.status === "ok" ? `{"index":${x.index},"status":"ok","result":${serialisedOnce(x.result) ?? JSON.stringify(x.result)}}` : JSON.stringify(x)));
    return c.body(`{"results":[${items.join(",")}],"summary":${JSON.stringify(body.summary)}}`, 200, { "content-type": "application/json" }) as never;
  };

  const screen = async (c: Context, body: ScreenRequestBody) => {
    const caller = callerOf(c);
    const result = await idempotent(c, s, caller.accountId, async (claim) => {
      // A retry of a request that died after storing its check answers that check (already charged).
      const stored = claim?.recovered ? await s.checks.byIdempotencyKey(caller.accountId, claim.key, claim.recovered.claimed_at) : [];
      if (stored[0]) return { status: 200, body: stored[0].verdict };
      // An invalid entity or a failure of ours costs nothing: the charge is refunded.
      const r = await charged(c, s, caller, 1, () => runCheck(s, caller, body, claim?.key));
      return { status: 200, body: r.verdict };
    });
    return respond(c, result);
  };
  // The hot path: a plainly valid body is screened at once; anything else goes on to the route's
  // schema validators below, which answer it exactly (422 with the offending members, 415).
  app.post(screenRoute.path, async (c, next) => {
    const body = await plainScreenBody(c);
    return body ? screen(c, body) : next();
  });
  app.openapi(screenRoute, (c) => screen(c, c.req.valid("json")));

  app.openapi(batchRoute, async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid("json");
    const requests = body.entities.map((e) => (typeof e === "string" ? { entity_value: e } : e));
    const result = await idempotent(c, s, caller.accountId, async (claim) => {
      const run = async (earlier: ReadonlyMap<string, Verdict>) => {
        // All entities in flight at once, so their database lookups coalesce into one statement each.
        const items = await screenBatch(requests, s.screening, { concurrency: requests.length });
        const answer = (r: Screened): Verdict => earlier.get(r.entity.id) ?? r.verdict;
        const writes = new Map<string, Promise<void>>();
        for (const item of items) {
          if (item.status !== "ok" || earlier.has(item.result.entity.id) || writes.has(item.result.verdict.id)) continue;
          // Started together, so group commit writes the batch's records in one transaction.
          writes.set(item.result.verdict.id, record(s, caller, requests[item.index] as { entity_value: string; type?: string }, item.result, claim?.key));
        }
        await Promise.all(writes.values());
        const byLevel: Record<string, number> = {};
        const unique = new Set<string>();
        const results = items.map((item) => {
          if (item.status === "error") return { index: item.index, status: "error" as const, error: { code: item.error.code, message: item.error.message } };
          const verdict = answer(item.result);
          unique.add(verdict.id);
          byLevel[verdict.risk_level] = (byLevel[verdict.risk_level] ?? 0) + 1;
          return { index: item.index, status: "ok" as const, result: verdict };
        });
        const ok = results.filter((r) => r.status === "ok").length;
        return { status: 200, body: { results, summary: { total: results.length, ok, error: results.length - ok, unique: unique.size, by_level: byLevel } } };
      };
      // A retry of a request that died after storing some of its checks answers those checks and
      // stores only the rest; the dead request had already been charged for the whole batch.
      const earlier = claim?.recovered ? await s.checks.byIdempotencyKey(caller.accountId, claim.key, claim.recovered.claimed_at) : [];
      if (earlier.length > 0) return run(new Map(earlier.map((r) => [r.entity.id, r.verdict])));
      // Charged up front (the limits stay exact under concurrency); the entities that got no verdict are refunded.
      return charged(c, s, caller, requests.length, () => run(new Map()), (r) => r.body.summary.error);
    });
    return respondBatch(c, result);
  });

  app.openapi(historyRoute, async (c) => {
    const q = c.req.valid("query");
    const since = q.since ? new Date(q.since) : undefined;
    const until = q.until ? new Date(q.until) : undefined;
    checkRange(since, until);
    const accountId = callerOf(c).accountId;
    const page = await s.checks.history(accountId, { limit: q.limit, cursor: q.cursor ? openCursor(q.cursor, accountId, s.cursorKey) : null, ...(q.type ? { type: q.type } : {}), ...(q.risk_level ? { risk_level: q.risk_level } : {}), ...(since ? { since } : {}), ...(until ? { until } : {}) });
    return c.json({ items: page.items.map(({ created_at: _c, ...item }) => ({ ...item, entity: { ...item.entity, input: item.entity.value } })), next_cursor: page.next_cursor ? sealCursor(page.next_cursor, accountId, s.cursorKey) : null } as never, 200);
  });

  app.openapi(exportRoute, async (c) => {
    const q = c.req.valid("query");
    const since = q.since ? new Date(q.since) : undefined;
    const until = q.until ? new Date(q.until) : undefined;
    checkRange(since, until);
    const filters = { ...(q.type ? { type: q.type } : {}), ...(q.risk_level ? { risk_level: q.risk_level as RiskLevel } : {}), ...(since ? { since } : {}), ...(until ? { until } : {}) };
    const source = auditExportCsv(s.checks, callerOf(c).accountId, filters)[Symbol.asyncIterator]();
    // The first piece is read before answering: a database that cannot be reached is a 503
    // problem, not a 200 cut short. Each later piece is pulled only when the client has taken
    // the previous one, so memory stays flat however many rows there are.
    let first: IteratorResult<Uint8Array> | null = await source.next();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = first ?? (await source.next());
        first = null;
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await source.return?.(undefined);
      },
    }, { highWaterMark: 1 });
    c.header("content-type", "text/csv; charset=utf-8");
    c.header("content-disposition", `attachment; filename="svc-audit-${s.clock.now().toISOString().slice(0, 10)}.csv"`);
    return c.body(body, 200) as never;
  });

  registerAuditVerifyRoutes(app, s);
  app.openapi(auditRoute, async (c) => {
    const rec = await s.checks.get(callerOf(c).accountId, c.req.valid("param").id);
    // Another account's id is indistinguishable from an unknown one.
    if (!rec) throw problem({ status: 404, code: "audit.not_found", title: "Not found", detail: "No check with this id in your account." });
    return c.json(rec as never, 200);
  });

  app.openapi(reportRoute, async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid("json");
    const result = await idempotent(c, s, caller.accountId, async () => {
      const parsed = parseEntity(body.entity_value, body.type ? { type: body.type } : {});
      if (!parsed.ok) throw problem(entityProblem(parsed.error));
      const related = (body.related_entities ?? []).map((v, i) => {
        const p = parseEntity(v);
        if (!p.ok) throw problem(entityProblem(p.error, `/related_entities/${i}`));
        return p.entity.id;
      });
      const e = parsed.entity;
      if (body.check_id) {
        const check = await s.checks.get(caller.accountId, body.check_id);
        if (!check) throw problem({ status: 404, code: "audit.not_found", title: "Unknown check", detail: "check_id does not name one of your checks." });
        if (!checkCoversEntity(check.entity, e.id)) {
          const detail = `Check ${body.check_id} is about ${check.entity.id}, not ${e.id}.`;
          throw problem({ status: 422, code: "report.check_mismatch", title: "The check is about another entity", detail, errors: [{ pointer: "/check_id", code: "report.check_mismatch", message: detail }] });
        }
      }
      const { report, previous } = await s.reports.file({
        reporter_id: `account:${caller.accountId}`,
        entity: { type: e.type, value: e.value, id: e.id },
        category: body.category,
        description: body.description ?? null,
        evidence_urls: body.evidence_urls ?? [],
        related_entities: related,
        check_id: body.check_id ?? null,
        feedback: body.feedback ?? null,
      }, s.clock.now());
      // Nothing enters the graph at filing: a report's related entities do when it is confirmed
      // (routes/reports.ts). A confirmed report replaced by this one takes its edges back out.
      if (previous?.moderation_status === "confirmed") await syncReportedWith(s, e.id, previous.related_entities, s.clock.now());
      return { status: 202, body: { id: report.id, status: "received", moderation_status: "unverified", entity: { type: e.type, value: e.value, id: e.id } } };
    });
    return respond(c, result);
  });

  app.openapi(graphRoute, async (c) => {
    const { type, value } = c.req.valid("param");
    const q = c.req.valid("query");
    const parsed = parseEntity(value, { type });
    if (!parsed.ok) throw problem(entityProblem(parsed.error, "/value"));
    // Shared edges and the caller's own; node risk from the caller's own verdicts.
    const walk = await s.graph.walk(parsed.entity.id, { depth: q.depth, maxNodes: q.max_nodes, accountId: callerOf(c).accountId, ...(q.relation ? { relation: q.relation } : {}) });
    return c.json({ root: walk.root.id, nodes: walk.nodes, edges: walk.edges, truncated: walk.truncated } as never, 200);
  });

  registerAsyncRoutes(app, s);
  registerUsageRoutes(app, s);
  registerKeyRoutes(app, s);
  registerReportRoutes(app, s);
  registerBillingRoutes(app, s);
  registerAccountRoutes(app, s);
  registerReviewRoutes(app, s);
  registerSupportRoutes(app, s);

  return app;
}

function checkRange(since: Date | undefined, until: Date | undefined): void {
  if (since && until && since.getTime() >= until.getTime()) {
    throw problem({ status: 422, code: "request.invalid_range", title: "Invalid range", detail: "`since` must be before `until`.", errors: [{ pointer: "/since", code: "request.invalid_range", message: "since must be before until" }] });
  }
}
