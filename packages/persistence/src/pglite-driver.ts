import { EventEmitter } from "node:events";
import { parse as pgliteParse, protocol, type PGlite, type Results } from "@electric-sql/pglite";

/** What TypeORM's postgres dialect reads from a `pg` query result. */
export interface PgLikeResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: { name: string; dataTypeID: number }[];
}
type Callback = (err: Error | null, result?: PgLikeResult) => void;

/**
 * A `pg`-shaped driver over one PGlite instance, for TypeORM's `driver` option.
 *
 * PGlite is a single session. A transaction is a sequence of statements on one session, so the
 * session is lent to one caller at a time (FIFO) until it calls `release()`; otherwise two
 * transactions interleave their BEGIN/COMMIT and a rolled-back row gets committed. Errors go to
 * the callback or the promise, never both (an error reported twice becomes an unhandled rejection).
 * Consequence: `dataSource.query()` inside `dataSource.transaction(m => …)` waits for a session
 * the transaction holds — a deadlock. Inside a transaction always use its manager `m`.
 */
export function pgliteDriver(open: () => Promise<PGlite>, closed?: () => void): { Pool: new (options?: unknown) => PglitePool } {
  return { Pool: class extends PglitePool { constructor() { super(open, closed); } } };
}

export class PgliteSession extends EventEmitter {
  constructor(private readonly db: PGlite) {
    super();
  }

  query(text: string, params?: unknown[] | Callback, callback?: Callback): Promise<PgLikeResult> | undefined {
    const cb = typeof params === "function" ? params : callback;
    const values = typeof params === "function" ? undefined : params;
    const result = run(this.db, text, values);
    if (!cb) return result;
    result.then((r) => cb(null, r), (e: unknown) => cb(e instanceof Error ? e : new Error(String(e))));
    return undefined;
  }

  /**
   * A named prepared statement (the hot path's statements, decision 0094): parsed and planned
   * once per database instance, then each run is one round trip into PGlite (bind, describe,
   * execute, sync) instead of PGlite's `query`, which parses, plans and describes the text
   * anew in five. The text must be fixed per name.
   */
  prepared(name: string, text: string, params: readonly unknown[]): Promise<PgLikeResult> {
    return runPrepared(this.db, name, text, params);
  }
}

export class PglitePool extends EventEmitter {
  private db: Promise<PGlite> | undefined;
  /** Resolves when the session is free: each borrower chains its own release onto it. */
  private tail: Promise<void> = Promise.resolve();

  /** `closed` runs after `end()` closed the database (the data directory's lock is released there). */
  constructor(private readonly open: () => Promise<PGlite>, private readonly closed?: () => void) {
    super();
  }

  connect(): Promise<PgliteSession & { release: (err?: unknown) => void }>;
  connect(cb: (err: Error | null, session?: PgliteSession, release?: (err?: unknown) => void) => void): void;
  connect(cb?: (err: Error | null, session?: PgliteSession, release?: (err?: unknown) => void) => void): unknown {
    const acquired = this.acquire();
    if (!cb) return acquired.then(([s, release]) => Object.assign(s, { release }));
    acquired.then(([s, release]) => cb(null, s, release), (e: unknown) => cb(e instanceof Error ? e : new Error(String(e))));
    return undefined;
  }

  /** A one-off statement on a borrowed session (pg's `pool.query`). */
  async query(text: string, params?: unknown[]): Promise<PgLikeResult> {
    const [session, release] = await this.acquire();
    try {
      return (await session.query(text, params)) as PgLikeResult;
    } finally {
      release();
    }
  }

  end(cb?: (err?: Error) => void): Promise<void> {
    const closed = this.tail.then(async () => {
      const db = this.db;
      this.db = undefined;
      try {
        if (db) await (await db).close();
      } finally {
        this.closed?.();
      }
    });
    if (!cb) return closed;
    closed.then(() => cb(), (e: unknown) => cb(e instanceof Error ? e : new Error(String(e))));
    return Promise.resolve();
  }

  /**
   * Closes the database and opens it again on the next statement, when no session is lent (the
   * data directory stays this process's): what the closed instance held is let go, e.g. after
   * creating and migrating a database (decision 0081).
   */
  async restart(): Promise<void> {
    const [, release] = await this.acquire();
    try {
      const db = this.db;
      this.db = undefined;
      if (db) await (await db).close();
    } finally {
      release();
    }
  }

  private async acquire(): Promise<[PgliteSession, (err?: unknown) => void]> {
    let free!: () => void;
    const held = new Promise<void>((resolve) => (free = resolve));
    const turn = this.tail;
    this.tail = turn.then(() => held);
    await turn;
    try {
      this.db ??= this.open();
      const session = new PgliteSession(await this.db);
      let released = false;
      return [session, () => {
        if (released) return;
        released = true;
        free();
      }];
    } catch (e) {
      this.db = undefined;
      free();
      throw e;
    }
  }
}

async function run(db: PGlite, text: string, params: unknown[] | undefined): Promise<PgLikeResult> {
  // Without parameters use the simple protocol, as pg does: it allows several statements.
  const result: Results | undefined = params && params.length > 0 ? await db.query(text, params) : (await db.exec(text)).at(-1);
  if (!result) return { rows: [], rowCount: 0, command: "", fields: [] };
  return {
    rows: result.rows,
    rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
    command: result.command ?? "",
    fields: result.fields,
  };
}

const { serialize } = protocol;
/** Statements prepared in each database instance (a reopened instance starts with none): name → text and parameter types. */
const preparedIn = new WeakMap<PGlite, Map<string, { readonly text: string; readonly types: readonly number[] }>>();

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function runPrepared(db: PGlite, name: string, text: string, params: readonly unknown[]): Promise<PgLikeResult> {
  return db.runExclusive(async () => {
    let statements = preparedIn.get(db);
    if (!statements) preparedIn.set(db, (statements = new Map()));
    let statement = statements.get(name);
    if (statement === undefined) {
      // Parse and describe (the parameters' types choose their serialisers); sync ends the
      // exchange either way, so a statement that does not parse leaves the session usable.
      const { messages } = await db.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]), { syncToFs: false });
      statement = { text, types: pgliteParse.parseDescribeStatementResults(messages) };
      statements.set(name, statement);
    } else if (statement.text !== text) {
      throw new Error(`prepared statement ${name} was prepared with another text`);
    }
    const types = statement.types;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serialise = db.serializers[types[i] as number];
      return serialise ? serialise(v) : String(v);
    });
    const { messages } = await db.execProtocol(
      concat([serialize.bind({ statement: name, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    await db.syncToFs();
    const result = pgliteParse.parseResults(messages, db.parsers)[0];
    return {
      rows: result?.rows ?? [],
      rowCount: result?.affectedRows ?? result?.rows.length ?? 0,
      command: "",
      fields: result?.fields ?? [],
    };
  });
}
