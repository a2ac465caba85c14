import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import type { EntityType, IntelRecord } from "@svc/core";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { addDataDirOption, withLocal } from "./api-access.js";
import { ENTITY_TYPES, examples, type Context } from "./shared.js";

const FORMATS = ["plain", "hosts", "eth-phishing-detect", "csv", "polkadot-js-all", "polkadot-js-address", "ofac-sdn"] as const;
type Format = (typeof FORMATS)[number];

interface ImportFlags {
  readonly format: Format;
  readonly source: string;
  readonly list: "allow" | "block";
  readonly type?: EntityType;
  readonly label?: string;
  readonly dataDir?: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
}

/** Why `svc intel` is refused while a server holds the embedded database (it has no --url). */
const LOCAL_ONLY = "`svc intel` works on the database itself, not through a server";
const BATCH = 1000;
const SHOW_SKIPPED = 20;

export function intelCommand(program: Command, ctx: Context): void {
  const intel = program
    .command("intel")
    .summary("import allow/block lists into the local database")
    .description("Curated intel: allow and block lists consulted by every check (the bundled official brand domains are always allowed).")
    .addHelpText("after", examples("svc intel import blocklist.txt --format plain --source my-soc", "svc intel import hosts.txt --format hosts --source urlhaus@2026-11-20", "svc intel import config.json --format eth-phishing-detect --source eth-phishing-detect", "SVC_FEEDS=feeds.json svc intel sync"));

  addDataDirOption(
    intel
      .command("sync")
      .description(
        "Fetch the live feeds configured in SVC_FEEDS (docs/feeds.md) and replace each feed's entries with its current content, in one transaction per feed. " +
          "A feed that did not change (304, same content) is left as it is; one that fails (unreachable, HTTP error, timeout, malformed, too large) keeps its old entries. Exits 3 when any feed failed.",
      )
      .option("--feed <name...>", "only these feeds (default: all)")
      .option("--force", "fetch without If-None-Match/If-Modified-Since")
      .option("--json", "print the results as JSON"),
  )
    .addHelpText("after", examples("SVC_FEEDS=./feeds.json svc intel sync", "svc intel sync --feed ofac-sdn --force --json"))
    .action(async (o: { feed?: string[]; force?: boolean; json?: boolean; dataDir?: string }) => {
      const io = ctx.io;
      await withLocal(io, o, async (local) => {
        const feeds = local.runtime.feeds;
        if (feeds.definitions.length === 0) throw new CliError("No feeds are configured.", EXIT.usage, "Set SVC_FEEDS to a JSON array of feeds or the path of a JSON file (see docs/feeds.md).");
        let results;
        try {
          results = await feeds.syncAll({ ...(o.feed ? { only: o.feed } : {}), force: o.force === true });
        } catch (e) {
          if (e instanceof RangeError) throw new CliError(e.message, EXIT.usage);
          throw e;
        }
        if (o.json) await write(io.stdout, `${JSON.stringify(results, null, 2)}\n`);
        else {
          const n = (x: number): string => x.toLocaleString("en-US");
          const lines = results.map((r) => {
            if (r.status === "failed") return `${r.feed}: FAILED (${r.error?.code}): ${r.error?.message}; its ${n(r.entries)} entries are kept`;
            if (r.status === "not_modified" || r.status === "unchanged") return `${r.feed}: unchanged (${r.status === "not_modified" ? "not modified" : "same content"}), ${n(r.entries)} entries, version ${r.version ?? "-"}`;
            return `${r.feed}: ${n(r.entries)} entries, version ${r.version}: ${n(r.added)} added, ${n(r.removed)} removed, ${n(r.unchanged)} unchanged, ${n(r.skipped)} skipped`;
          });
          await write(io.stdout, `${lines.join("\n")}\n`);
          for (const r of results) for (const why of r.skipped_sample.slice(0, 5)) io.stderr.write(`${r.feed}: skipped ${why}\n`);
        }
        if (results.some((r) => r.status === "failed")) ctx.exit(EXIT.unavailable);
      }, `${LOCAL_ONLY}; to have that server sync the feeds, start it with SVC_FEEDS and SVC_FEED_SYNC_MINUTES (docs/feeds.md)`);
    });

  addDataDirOption(
    intel
      .command("feeds")
      .description("The live feeds configured in SVC_FEEDS and their state: entries, version, when last synced and checked, the last error. A feed taken out of SVC_FEEDS keeps its entries (listed as not configured) until --remove.")
      .option("--remove <name>", "delete a feed's entries and state")
      .option("--json", "print as JSON"),
  ).action(async (o: { json?: boolean; remove?: string; dataDir?: string }) => {
    const io = ctx.io;
    await withLocal(io, o, async (local) => {
      const feeds = local.runtime.feeds;
      if (o.remove !== undefined) {
        let n: number;
        try {
          n = await feeds.remove(o.remove);
        } catch (e) {
          if (e instanceof RangeError) throw new CliError(e.message, EXIT.usage, "`svc intel feeds` lists the feeds with stored entries.");
          throw e;
        }
        const still = feeds.definitions.some((f) => f.name === o.remove) ? " It is still in SVC_FEEDS: the next sync loads it again." : "";
        return void (await write(io.stdout, `Removed feed ${o.remove}: ${n.toLocaleString("en-US")} entries deleted.${still}\n`));
      }
      const status = await feeds.status();
      const rows = status.map(({ definition: d, state: s }) => ({
        name: d?.name ?? s?.name ?? "", format: d?.format ?? s?.format ?? "", url: d?.url ?? s?.url ?? "", configured: d !== null, entries: s?.entries ?? 0, version: s?.version ?? null,
        synced_at: s?.synced_at?.toISOString() ?? null, checked_at: s?.checked_at?.toISOString() ?? null, last_error: s?.last_error ?? null,
      }));
      if (o.json) return void (await write(io.stdout, `${JSON.stringify(rows, null, 2)}\n`));
      if (rows.length === 0) return void (await write(io.stdout, "No feeds are configured (SVC_FEEDS, see docs/feeds.md).\n"));
      const text = rows.map((r) => `${r.name} (${r.format}${r.configured ? "" : ", not configured: svc intel feeds --remove " + r.name}) ${r.url}\n  ${r.entries.toLocaleString("en-US")} entries, version ${r.version ?? "-"}, synced ${r.synced_at ?? "never"}, checked ${r.checked_at ?? "never"}${r.last_error ? `\n  last error: ${r.last_error}` : ""}`);
      await write(io.stdout, `${text.join("\n")}\n`);
    }, LOCAL_ONLY);
  });

  addDataDirOption(
    intel
      .command("import")
      .description(
        "Import a list into the database this machine serves from; entries are canonicalised like checked entities (case, IDNA, EIP-55), so they match however they are written later. Re-importing the same source updates its entries.\n\n" +
          "Formats: plain (one entry per line, # comments), hosts (0.0.0.0 host lines), eth-phishing-detect (its config.json: blacklist → block, whitelist and fuzzylist → allow), csv (header with entity and optionally type, list, label), " +
          "polkadot-js-all (all.json: deny → block, allow → allow), polkadot-js-address (address.json: wallet blocks), ofac-sdn (SDN XML: its digital currency addresses). To keep lists up to date from their URLs, see `svc intel sync`.",
      )
      .argument("<file>", "the list file")
      .addOption(new Option("--format <format>", "file format").choices([...FORMATS]).makeOptionMandatory())
      .requiredOption("--source <name>", "provenance written on every entry, e.g. urlhaus@2026-11-20")
      .addOption(new Option("--list <list>", "which list plain/hosts/csv entries go to (csv rows may say)").choices(["allow", "block"]).default("block"))
      .addOption(new Option("--type <type>", "entity type of every entry (default: recognised per entry)").choices([...ENTITY_TYPES]))
      .option("--label <label>", "short reason on every entry (default: listed by <source>)")
      .option("--dry-run", "parse and count, but write nothing")
      .option("--json", "print the counts as JSON"),
  )
    .addHelpText("after", examples("svc intel import phishing.txt --format plain --source my-soc --label phishing", "svc intel import feed.csv --format csv --source partner-feed --dry-run"))
    .action(async (file: string, o: ImportFlags) => {
      const io = ctx.io;
      let text: string;
      try {
        text = await readFile(resolve(io.cwd, file), "utf8");
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new CliError(code === "ENOENT" ? `File not found: ${file}` : code === "EISDIR" ? `${file} is a directory, not a file.` : `Cannot read ${file} (${code ?? String(e)}).`, EXIT.usage, "Check the path.");
      }
      const intelPkg = await import("@svc/intel");
      const { parseEntity } = await import("@svc/core");
      const opts = { source: o.source, list: o.list, ...(o.type ? { type: o.type } : {}), ...(o.label ? { label: o.label } : {}) };
      const parsed =
        o.format === "plain" ? intelPkg.parsePlainList(text, opts)
        : o.format === "hosts" ? intelPkg.parseHostsFile(text, opts)
        : o.format === "csv" ? intelPkg.parseIntelCsv(text, opts)
        : o.format === "polkadot-js-all" ? intelPkg.parsePolkadotJsAll(text, { source: o.source, ...(o.type ? { type: o.type } : {}), ...(o.label ? { label: o.label } : {}) })
        : o.format === "polkadot-js-address" ? intelPkg.parsePolkadotJsAddresses(text, { source: o.source, ...(o.label ? { label: o.label } : {}) })
        : o.format === "ofac-sdn" ? intelPkg.parseOfacSdn(text, { source: o.source, ...(o.label ? { label: o.label } : {}) })
        : intelPkg.parseEthPhishingDetect(text, { source: o.source, ...(o.type ? { type: o.type } : {}), ...(o.label ? { label: o.label } : {}) });

      const skipped: { line: number | null; reason: string }[] = parsed.skipped.map((s) => ({ line: s.line, reason: s.reason }));
      const records = new Map<string, IntelRecord>();
      for (const r of parsed.records) {
        const p = parseEntity(r.value, r.type ? { type: r.type } : {});
        if (!p.ok) {
          skipped.push({ line: null, reason: `${JSON.stringify(r.value)}: ${p.error.message}` });
          continue;
        }
        const rec: IntelRecord = { type: p.entity.type, value: p.entity.value, list: r.list, label: r.label ?? `${r.list === "block" ? "listed" : "allowed"} by ${o.source}`, source: r.source };
        records.set(`${rec.list}\u0000${p.entity.id}`, rec);
      }
      let added = 0;
      let updated = 0;
      const duplicates = parsed.records.length - skipped.filter((s) => s.line === null).length - records.size;
      const finish = async (where: string): Promise<void> => {
        const counts = { file, format: o.format, source: o.source, read: parsed.records.length + parsed.skipped.length, added, updated, skipped: skipped.length, duplicates, dry_run: o.dryRun === true };
        if (o.json) return void (await write(io.stdout, `${JSON.stringify(counts, null, 2)}\n`));
        for (const s of skipped.slice(0, SHOW_SKIPPED)) io.stderr.write(`${s.line === null ? "skipped" : s.line === 0 ? "file" : `line ${s.line}`}: ${s.reason}\n`);
        if (skipped.length > SHOW_SKIPPED) io.stderr.write(`… and ${skipped.length - SHOW_SKIPPED} more skipped\n`);
        const n = (x: number): string => x.toLocaleString("en-US");
        const merged = duplicates > 0 ? `, ${n(duplicates)} duplicates merged` : "";
        await write(io.stdout, o.dryRun
          ? `Dry run, nothing written: ${n(records.size)} entries from ${file} would be imported (source ${o.source}), ${n(skipped.length)} skipped${merged}.\n`
          : `Imported ${n(records.size)} entries from ${file} (source ${o.source}; ${where}): ${n(added)} added, ${n(updated)} updated, ${n(skipped.length)} skipped${merged}.\n`);
      };
      if (o.dryRun) return finish("dry run");
      await withLocal(io, o, async (local) => {
        const store = local.runtime.intel;
        const all = [...records.values()];
        for (let i = 0; i < all.length; i += BATCH) {
          const r = await store.upsert(all.slice(i, i + BATCH));
          added += r.added;
          updated += r.updated;
        }
        await finish(local.where);
      }, LOCAL_ONLY);
      if (records.size === 0) {
        ctx.exit(EXIT.usage);
        io.stderr.write(`Nothing importable in ${file}: is --format ${o.format} right?\n`);
      }
    });
}
