import { randomBytes } from "node:crypto";
import { Option, type Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { addDataDirOption } from "./api-access.js";
import { examples, type Context } from "./shared.js";

interface ServeOptions {
  readonly port?: string;
  readonly host?: string;
  readonly dataDir?: string;
}

export function serveCommand(program: Command, ctx: Context): void {
  addDataDirOption(
    program
      .command("serve")
      .summary("run the HTTP API (/v1) on this machine")
      .description(
        "Run the HTTP API on the embedded database (PGlite under SVC_DATA_DIR, default ./.svc) or on PostgreSQL with DATABASE_URL. Migrates on start. On the first start it prints an admin API key, once (set SVC_BOOTSTRAP_KEY to make that key deterministic).\n\n" +
          "Settings come from the environment as for the server (PORT, HOST, SVC_DATA_DIR, DATABASE_URL, SVC_BOOTSTRAP_KEY, LOG_LEVEL); --port and --host override. Logs are JSON lines on stdout. Stops cleanly on Ctrl-C / SIGTERM.",
      )
      .addOption(new Option("--port <port>", "TCP port (default: $PORT or 8080; 0 = any free port)"))
      .addOption(new Option("--host <host>", "interface (default: $HOST or 0.0.0.0)")),
  )
    .addHelpText("after", examples("svc serve", "svc serve --port 9000 --host 127.0.0.1", "DATABASE_URL=postgres://svc@db/svc svc serve"))
    .action(async (o: ServeOptions) => {
      const io = ctx.io;
      const { openLocal, bootstrapAdmin, createApp, startEmbeddedWorker, drainHttpServer, tuneHttpServer, ADMIN_ACCOUNT_ID } = await import("../local.js");
      const { serve } = await import("@hono/node-server");
      const local = await openLocal(io, o.dataDir !== undefined ? { dataDir: o.dataDir } : {}, { logLevel: io.env.LOG_LEVEL || "info" });
      const overrides = { ...(o.port !== undefined ? { PORT: o.port } : {}), ...(o.host !== undefined ? { HOST: o.host } : {}) };
      const { localConfig } = await import("../local.js");
      const config = localConfig(io, o.dataDir !== undefined ? { dataDir: o.dataDir } : {}, overrides);
      const s = local.runtime.services;
      let worker: Awaited<ReturnType<typeof startEmbeddedWorker>> | null = null;
      try {
        let { key } = await bootstrapAdmin(s, config.SVC_BOOTSTRAP_KEY);
        if (!key && !config.SVC_BOOTSTRAP_KEY) {
          // The admin account may predate this server (made by another svc command): a server with
          // no usable key would lock its operator out, so make one and show it once.
          const cli = local.cliKeyHash();
          const usable = (await s.keys.list(ADMIN_ACCOUNT_ID)).filter((k) => !k.revoked_at && k.key_hash !== cli);
          if (usable.length === 0) {
            const core = await import("@svc/server-ports");
            key = core.formatApiKey(randomBytes(32));
            await s.keys.create({ account_id: ADMIN_ACCOUNT_ID, key_hash: core.hashApiKey(key), prefix: core.apiKeyHint(key) }, s.clock.now());
          }
        }
        // As `npm start`: on the embedded database the worker (async jobs, webhooks) runs in this
        // process; on PostgreSQL it is its own process (apps/worker), so several servers share it.
        if (!config.DATABASE_URL) worker = await startEmbeddedWorker(local.runtime, config);
        const app = createApp(s);
        const server = await new Promise<ReturnType<typeof serve>>((ok, fail) => {
          const srv = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => ok(srv));
          tuneHttpServer(srv);
          srv.once("error", (e: NodeJS.ErrnoException) => fail(e.code === "EADDRINUSE" ? new CliError(`Port ${config.PORT} is already in use.`, EXIT.usage, "Choose another with --port (or PORT), or stop what is using it.") : e));
        });
        const addr = server.address();
        const port = typeof addr === "object" && addr ? addr.port : config.PORT;
        const shown = config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST;
        const url = `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
        local.noteServerUrl(url);
        io.stderr.write(`svc API listening on ${url} (${local.where}${worker ? "; async jobs run here" : "; async jobs need the worker: npm run worker"}). Docs: ${url}/docs · Ctrl-C stops.\n`);
        if (key) {
          io.stderr.write(`\nAdmin API key (shown once, keep it safe):\n\n  ${key}\n\nTry: svc check paypa1.com --url ${url} --key ${key}\n\n`);
        }
        await new Promise<void>((done) => {
          const stop = (): void => {
            io.stderr.write("svc: shutting down\n");
            // Requests already accepted are answered (≤ 20 s) before the database closes.
            void drainHttpServer(server, 20_000).then(() => done());
          };
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
      } finally {
        // Stop taking jobs and finish those in flight (≤ 30 s) before the database closes.
        await worker?.stop(30_000);
        await local.close();
      }
    });
}
