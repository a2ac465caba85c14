import { migrationsRunAtOpen } from "@svc/persistence";
import type { Command } from "commander";
import { write } from "../io.js";
import { addDataDirOption } from "./api-access.js";
import { examples, type Context } from "./shared.js";

export function migrateCommand(program: Command, ctx: Context): void {
  addDataDirOption(
    program
      .command("migrate")
      .summary("create or upgrade the database schema")
      .description("Create or upgrade the database schema: embedded PGlite under SVC_DATA_DIR (default ./.svc), or PostgreSQL with DATABASE_URL. Safe to run again; `svc serve` also migrates on start."),
  )
    .addHelpText("after", examples("svc migrate", "svc migrate --data-dir /var/lib/svc", "DATABASE_URL=postgres://svc@db/svc svc migrate"))
    .action(async (o: { dataDir?: string }) => {
      // The schema alone: no services, so nothing else is asked for (an audit key on PostgreSQL).
      const { openLocalSchema } = await import("../local.js");
      const local = await openLocalSchema(ctx.io, o, "`svc migrate` works on the database itself (a server migrates it when it starts)");
      try {
        const ds = local.dataSource;
        const applied = (await ds.query(`SELECT "name" FROM "migrations" ORDER BY "id"`)) as { name: string }[];
        const pending = await ds.showMigrations();
        const now = migrationsRunAtOpen(ds);
        const latest = applied.at(-1)?.name ?? "none";
        await write(ctx.io.stdout, `Database ready: ${local.where}\n`
          + (now === undefined ? "" : now.length > 0 ? `Applied now: ${now.join(", ")}.\n` : "Already up to date: nothing to apply.\n")
          + `Schema: ${applied.length} migration(s), the latest ${latest}${pending ? " (some still pending!)" : ""}.\n`);
      } finally {
        await local.close();
      }
    });
}
