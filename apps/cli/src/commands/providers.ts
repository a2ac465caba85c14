import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { addDataDirOption } from "./api-access.js";
import { examples, type Context } from "./shared.js";

export function providersCommand(program: Command, ctx: Context): void {
  const providers = program
    .command("providers")
    .summary("outside reputation providers (RDAP, DNS, Safe Browsing, URLhaus, AbuseIPDB, Tor exits, AS numbers, Chainabuse, a chain explorer, IPQualityScore)")
    .description("Outside reputation providers consulted by every check of the types they cover; none unless SVC_PROVIDERS lists them (docs/providers.md).");

  addDataDirOption(
    providers
      .command("test")
      .description("Say which providers are configured, and ask each configured one a harmless question (example.com, 127.0.0.1, the zero address, a test number) or load its data to show it is reachable with this configuration. Exits 3 when a configured provider is unreachable.")
      .option("--timeout <ms>", "per provider", "5000")
      .option("--json", "print the results as JSON"),
  )
    .addHelpText("after", examples("SVC_PROVIDERS=rdap,dns svc providers test", "svc providers test --json"))
    .action(async (o: { timeout: string; json?: boolean; dataDir?: string }) => {
      const io = ctx.io;
      const timeoutMs = Number(o.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000) throw new CliError(`--timeout must be a whole number of milliseconds from 100 to 60000, not "${o.timeout}".`, EXIT.usage);
      // Loaded here, not at the top: `svc --help` and every other command start without them.
      const [{ systemClock }, { buildReputationProviders, MemoryProviderCache, PROVIDER_NAMES, providerKeyVariable }, { providerSettings }, { localConfig }] = await Promise.all([
        import("@svc/core"),
        import("@svc/persistence"),
        import("@svc/runtime"),
        import("../local.js"),
      ]);
      const config = localConfig(io, o);
      const settings = providerSettings(config);
      let built: ReturnType<typeof import("@svc/persistence").buildReputationProviders>;
      try {
        built = buildReputationProviders(settings, { clock: systemClock, cache: new MemoryProviderCache() });
      } catch (e) {
        throw new CliError(`A provider's data could not be loaded: ${(e as Error).message}`, EXIT.usage, "See docs/providers.md for the file formats.");
      }
      const rows = await Promise.all(PROVIDER_NAMES.map(async (name) => {
        const p = built.find((b) => b.name === name);
        if (!p) {
          const variable = providerKeyVariable(name);
          return { provider: name, configured: false, reachable: null as boolean | null, detail: `not enabled (add it to SVC_PROVIDERS${variable ? ` and set ${variable}` : ""})` };
        }
        try {
          return { provider: name, configured: true, reachable: true as boolean | null, detail: await p.probe(timeoutMs) };
        } catch (e) {
          return { provider: name, configured: true, reachable: false as boolean | null, detail: (e as Error).message };
        }
      }));
      if (rows.some((r) => r.reachable === false)) ctx.exit(EXIT.unavailable);
      if (o.json) return void (await write(io.stdout, `${JSON.stringify(rows, null, 2)}\n`));
      await write(io.stdout, `${rows.map((r) => `${r.provider}: ${r.configured ? (r.reachable ? "ok" : "UNREACHABLE") : "off"} - ${r.detail}`).join("\n")}\n`);
    });

  addDataDirOption(
    providers
      .command("rdap-bootstrap")
      .description("Download the current IANA RDAP bootstrap file, check it, and store it where the RDAP provider reads it ($SVC_RDAP_BOOTSTRAP, else <data dir>/rdap-dns.json), replacing the bundled snapshot.")
      .option("--url <url>", "where to download it from (default: IANA's https://data.iana.org/rdap/dns.json)"),
  )
    .addHelpText("after", examples("svc providers rdap-bootstrap", "SVC_RDAP_BOOTSTRAP=/etc/svc/rdap-dns.json svc providers rdap-bootstrap"))
    .action(async (o: { url?: string; dataDir?: string }) => {
      const io = ctx.io;
      const [{ fetchRdapBootstrap, IANA_RDAP_DNS_URL }, { providerSettings }, { localConfig }] = await Promise.all([import("@svc/persistence"), import("@svc/runtime"), import("../local.js")]);
      const config = localConfig(io, o);
      const path = providerSettings(config).rdapBootstrapPath;
      if (!path) throw new CliError("No place to store the bootstrap file with an in-memory data directory.", EXIT.usage, "Set SVC_RDAP_BOOTSTRAP to a file path.");
      let fetched: Awaited<ReturnType<typeof import("@svc/persistence").fetchRdapBootstrap>>;
      try {
        fetched = await fetchRdapBootstrap(fetch, o.url ?? IANA_RDAP_DNS_URL);
      } catch (e) {
        throw new CliError(`Could not refresh the RDAP bootstrap file: ${(e as Error).message}`, EXIT.unavailable, "The bundled snapshot (or the file already stored) stays in use.");
      }
      const target = resolve(io.cwd, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(`${target}.tmp`, fetched.text);
      renameSync(`${target}.tmp`, target);
      await write(io.stdout, `RDAP bootstrap ${fetched.bootstrap.publication}: ${fetched.bootstrap.tlds} TLDs, stored in ${target}\n`);
    });
}
