import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import type { EntityType, IntelRecord } from "@svc/core";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { addDataDirOption, withLocal } from "./api-access.js";
import { ENTITY_TYPES, examples, type Context } from "./shared.js";

const FORMATS = ["plain", "hosts", "eth-phishing-detect", "csv"] as const;
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

const BATCH = 1000;
const SHOW_SKIPPED = 20;

export function intelCommand(program: Command, ctx: Context): void {
  const intel = program
    .command("intel")
    .summary("import allow/block lists into the local database")
    .description("Curated intel: allow and block lists consulted by every check (the bundled official brand domains are always allowed).")
    .addHelpText("after", examples("svc intel import blocklist.txt --format plain --source my-soc", "svc intel import hosts.txt --format hosts --source urlhaus@2026-11-20", "svc intel import config.json --format eth-phishing-detect --source eth-phishing-detect"));

  addDataDirOption(
    intel
      .command("import")
      .description(
        "Import a list into the database this machine serves from; entries are canonicalised like checked entities (case, IDNA, EIP-55), so they match however they are written later. Re-importing the same source updates its entries.\n\n" +
          "Formats: plain (one entry per line, # comments), hosts (0.0.0.0 host lines), eth-phishing-detect (its config.json: blacklist → block, whitelist and fuzzylist → allow), csv (header with entity and optionally type, list, label).",
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
        const { T } = await import("../local.js");
        const store = local.runtime.container.get(T.Intel);
        const all = [...records.values()];
        for (let i = 0; i < all.length; i += BATCH) {
          const r = await store.upsert(all.slice(i, i + BATCH));
          added += r.added;
          updated += r.updated;
        }
        await finish(local.where);
      });
      if (records.size === 0) {
        ctx.exit(EXIT.usage);
        io.stderr.write(`Nothing importable in ${file}: is --format ${o.format} right?\n`);
      }
    });
}
