/**
 * A queue whose enqueue is one SQL statement that can be embedded in a caller's statement (as a
 * data-modifying CTE): the caller's row and the job then commit in one round trip instead of a
 * five-statement transaction. Both SQL adapters offer it; `TypeOrmAsyncJobStore` uses it.
 */
export interface ComposableSend {
  /** The INSERT (… RETURNING id) for one job, its parameters numbered from `$${offset + 1}`. */
  sendStatement(queue: string, data: unknown, offset: number): Promise<ComposedSend>;
}

export interface ComposedSend {
  readonly sql: string;
  readonly params: unknown[];
  /** A `pg_notify(…)` expression to evaluate in the same statement (delivered at commit), if any. */
  readonly notify: string | null;
  /** Called after the statement committed (in-process wake-ups). */
  afterCommit(): void;
}

export const isComposable = (q: unknown): q is ComposableSend => typeof (q as Partial<ComposableSend>).sendStatement === "function";

/** `$1…$n` → `$(1+offset)…`: pg-boss's SQL has no `$` in literals. */
export const shiftParams = (sql: string, offset: number): string => sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
