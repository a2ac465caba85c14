/** The part of a `pg` client `boundQueries` needs. */
export interface PgClientLike {
  query(...args: unknown[]): unknown;
  connection?: { stream?: { destroy(err?: Error): void } };
}
const bounded = new WeakSet<PgClientLike>();

/**
 * A query with no answer within `ms` closes its connection. pg's own `query_timeout` is not used:
 * it fails the query but keeps the connection, and a ROLLBACK queued behind the unanswered
 * statement times out unsent, so the connection goes back to the pool still inside the failed
 * transaction and the next user's COMMIT commits its half. Closing the socket fails every query
 * on it, the pool drops the client, and the server rolls the transaction back. Queries given a
 * callback or a submittable (cursors, COPY streams) are left alone: they end when their reader stops.
 *
 * Applied to each client a pool hands out (`pool.on("acquire", …)`): the DataSource's pool
 * (openDataSource) and the export thread's (export-reader.worker.ts).
 */
export function boundQueries(client: PgClientLike, ms: number): void {
  if (bounded.has(client)) return;
  bounded.add(client);
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    if (typeof args.at(-1) === "function" || (first && typeof first === "object" && typeof first.submit === "function")) return query(...args);
    const timer = setTimeout(() => client.connection?.stream?.destroy(new Error("Query read timeout")), ms);
    const result = query(...args) as Promise<unknown>;
    return result.finally(() => clearTimeout(timer));
  };
}
