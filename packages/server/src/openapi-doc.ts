/**
 * Every operation that takes the key in `X-API-Key` takes it as `Authorization: Bearer` too
 * (middleware/auth.ts), and the dashboard's `svc_session` cookie (web/session.ts); the document
 * says so for every route, whoever registered it, instead of each route definition listing all.
 */
export function withBearerAlternative<D extends { paths?: object }>(doc: D): D {
  for (const ops of Object.values(doc.paths ?? {}) as object[]) {
    for (const op of Object.values(ops) as unknown[]) {
      const o = op as { security?: Record<string, string[]>[] };
      if (!Array.isArray(o.security)) continue;
      if (o.security.some((req) => "ApiKey" in req) && !o.security.some((req) => "Bearer" in req)) o.security = [...o.security, { Bearer: [] }];
      if (o.security.some((req) => "ApiKey" in req) && !o.security.some((req) => "Session" in req)) o.security = [...o.security, { Session: [] }];
    }
  }
  return doc;
}
