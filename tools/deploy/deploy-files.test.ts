import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";

// The deployment files (docs/operations.md): what can be checked without a container engine or
// a cluster is checked here, so a broken file fails CI. Where a tool is on the machine (docker
// compose, helm), its own validation runs too; helm-chart.test.ts renders the chart without helm.
const ROOT = resolve(import.meta.dirname, "../..");
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");
const onPath = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { stdio: "ignore", timeout: 90_000 }).status === 0;

/** Each `node <entry>` command must name a workspace that exists and the entry its build writes. */
function expectEntry(entry: string): void {
  const m = /^apps\/([\w-]+)\/dist\/main\.js$/.exec(entry);
  expect(m, entry).not.toBeNull();
  expect(existsSync(join(ROOT, "apps", m?.[1] ?? "", "package.json")), entry).toBe(true);
  expect(existsSync(join(ROOT, "apps", m?.[1] ?? "", "src", "main.ts")), entry).toBe(true);
}

const BOTS = ["telegram", "discord", "slack", "whatsapp"];

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  environment?: Record<string, string>;
  init?: boolean;
  user?: string;
}

describe("compose.yaml", () => {
  const compose = parse(read("compose.yaml"), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  const services = compose.services;

  it("names postgres, the migration, the API, the worker and the four bots (as optional profiles)", () => {
    expect(Object.keys(services).sort()).toEqual(["api", "bot-discord", "bot-slack", "bot-telegram", "bot-whatsapp", "migrate", "postgres", "worker"]);
    for (const b of BOTS) expect(services[`bot-${b}`]?.profiles).toEqual([b]);
    for (const s of ["api", "worker", "migrate", "postgres"]) expect(services[s]?.profiles, s).toBeUndefined();
    expect(compose.volumes).toHaveProperty("pgdata");
  });

  it("runs one image with a command per process, each naming a real entry point", () => {
    const ours = Object.entries(services).filter(([name]) => name !== "postgres");
    const images = new Set(ours.map(([, s]) => s.image));
    expect(images.size).toBe(1);
    expect(services.migrate?.build).toEqual({ context: ".", dockerfile: "Dockerfile" });
    for (const [name, s] of ours) {
      expect(s.command?.[0], name).toBeDefined();
      expectEntry(s.command?.[0] as string);
      expect(s.init, name).toBe(true);
      expect(s.environment?.DATABASE_URL, name).toMatch(/^postgres:\/\/svc:\$\{POSTGRES_PASSWORD:-svc\}@postgres:5432\/svc$/);
      // The audit key is never written here: compose refuses to start without it.
      expect(s.environment?.SVC_AUDIT_KEY, name).toMatch(/^\$\{SVC_AUDIT_KEY:\?/);
    }
    expect(services.migrate?.command).toEqual(["apps/cli/dist/main.js", "migrate"]);
  });

  it("migrates once, after PostgreSQL is healthy, before the API, the worker and the bots", () => {
    expect(services.migrate?.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    for (const name of ["api", "worker", ...BOTS.map((b) => `bot-${b}`)]) {
      expect(services[name]?.depends_on, name).toEqual({ migrate: { condition: "service_completed_successfully" } });
    }
    expect((services.migrate as { restart?: string }).restart).toBe("no");
  });

  it("has health checks: /healthz and /readyz for the API, /metrics on SVC_METRICS_PORT for the others", () => {
    expect(services.postgres?.healthcheck?.test.join(" ")).toContain("pg_isready");
    const api = services.api?.healthcheck?.test.join(" ") ?? "";
    expect(api).toContain("/healthz");
    expect(api).toContain("/readyz");
    expect(api).toContain("127.0.0.1:8080");
    for (const name of ["worker", ...BOTS.map((b) => `bot-${b}`)]) {
      const s = services[name] as Service;
      expect(s.healthcheck?.test.join(" "), name).toContain(`127.0.0.1:${s.environment?.SVC_METRICS_PORT}/metrics`);
      expect(s.environment?.SVC_METRICS_HOST, name).toBe("0.0.0.0");
    }
  });

  // Compose's own schema validation, with whichever Compose is installed (v2 plugin or v1.29).
  const composeCli: [string, string[]] | null = onPath("docker", ["compose", "version"]) ? ["docker", ["compose"]] : onPath("docker-compose", ["version"]) ? ["docker-compose", []] : null;
  it.runIf(composeCli !== null)("passes `docker compose config`, and refuses to run without SVC_AUDIT_KEY", () => {
    const [cmd, pre] = composeCli as [string, string[]];
    const args = [...pre, "-f", "compose.yaml", ...BOTS.flatMap((b) => ["--profile", b]), "config"];
    const { SVC_AUDIT_KEY: _unset, ...env } = process.env;
    const out = execFileSync(cmd, args, { cwd: ROOT, env: { ...env, SVC_AUDIT_KEY: "k".repeat(64) }, encoding: "utf8" });
    const resolved = parse(out) as { services: Record<string, Service> };
    expect(Object.keys(resolved.services).sort()).toEqual(Object.keys(services).sort());
    expect(resolved.services.api?.environment?.SVC_AUDIT_KEY).toBe("k".repeat(64));
    const refused = spawnSync(cmd, [...pre, "-f", "compose.yaml", "config"], { cwd: ROOT, env, encoding: "utf8" });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("set SVC_AUDIT_KEY");
  }, 120_000);
});

describe("Dockerfile", () => {
  const lines = read("Dockerfile").replace(/\\\n/g, " ").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const stages: { name: string; lines: string[] }[] = [];
  for (const l of lines) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?$/i.exec(l);
    if (from) stages.push({ name: from[1] ?? "", lines: [] });
    else stages.at(-1)?.lines.push(l);
  }
  const build = stages.find((s) => s.name === "build");
  const runtime = stages.at(-1);

  it("builds in one stage and runs from another with production dependencies only", () => {
    expect(stages.map((s) => s.name)).toEqual(["build", "runtime"]);
    expect(lines[0]).toMatch(/^ARG NODE_IMAGE=node:20-slim$/);
    expect(build?.lines.some((l) => /^RUN npm ci\b.*&& npm run build$/.test(l))).toBe(true);
    expect(runtime?.lines.some((l) => /^RUN npm ci --omit=dev\b/.test(l))).toBe(true);
    expect(runtime?.lines).toContain("COPY --from=build /out/ ./");
    // The runtime copies dist, data and bin of each workspace, never its TypeScript.
    expect(build?.lines.join("\n")).toMatch(/for x in dist data bin/);
    expect(build?.lines.join("\n")).toMatch(/! -name '\*\.ts'/);
  });

  it("runs as a numeric non-root user, `node <entry>` per process, the API by default", () => {
    const user = runtime?.lines.find((l) => l.startsWith("USER "));
    expect(user).toMatch(/^USER (\d+):(\d+)$/);
    expect(Number(/^USER (\d+)/.exec(user ?? "")?.[1])).toBeGreaterThan(0);
    expect(runtime?.lines).toContain('ENTRYPOINT ["node"]');
    const cmd = runtime?.lines.find((l) => l.startsWith("CMD "));
    expectEntry((JSON.parse(cmd?.slice(4) ?? "[]") as string[])[0] as string);
  });

  it("gives every process the V8 heap flags and the malloc setting `npm start` gives the API (decisions 0095, 0099)", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start ?? "";
    // `VAR=… exec node --flag=… apps/api/dist/main.js`: exec, so that a signal to npm reaches the API.
    const parts = /^((?:[A-Z_]+=\S+ )*)exec node ((?:--[\w-]+=\S+ )*)apps\/api\/dist\/main\.js$/.exec(start);
    const vars = parts?.[1]?.trim().split(" ") ?? [];
    const flags = parts?.[2]?.trim();
    expect(flags).toMatch(/--max-semi-space-size=\d+/);
    expect(runtime?.lines).toContain(`ENV NODE_OPTIONS="${flags}"`);
    expect(vars).toContain("MALLOC_TRIM_THRESHOLD_=131072");
    for (const v of vars) expect(runtime?.lines).toContain(`ENV ${v}`);
  });

  it(".dockerignore keeps installed, built and local files out of the context", () => {
    const ignored = read(".dockerignore").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    for (const p of [".git", "**/node_modules", "**/dist", ".svc", "**/.env"]) expect(ignored).toContain(p);
    // The build needs these: never ignored.
    for (const p of ["package.json", "package-lock.json", "packages", "apps", "tsconfig.base.json"]) expect(ignored).not.toContain(p);
  });
});

describe("Helm chart deploy/helm/svc", () => {
  const dir = join(ROOT, "deploy/helm/svc");
  const chart = parse(readFileSync(join(dir, "Chart.yaml"), "utf8")) as Record<string, unknown>;
  const values = parse(readFileSync(join(dir, "values.yaml"), "utf8")) as Record<string, unknown>;
  const templates = Object.fromEntries(readdirSync(join(dir, "templates")).map((f) => [f, readFileSync(join(dir, "templates", f), "utf8")]));

  it("is a v2 application chart", () => {
    expect(chart).toMatchObject({ apiVersion: "v2", name: "svc", type: "application" });
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("references only values that values.yaml defines", () => {
    const has = (path: string[]): boolean => {
      let v: unknown = values;
      for (const k of path) {
        if (v === null || typeof v !== "object" || !(k in v)) return false;
        v = (v as Record<string, unknown>)[k];
      }
      return true;
    };
    const missing: string[] = [];
    for (const [file, text] of Object.entries(templates)) {
      for (const m of text.matchAll(/\.Values((?:\.\w+)+)/g)) {
        const path = (m[1] as string).slice(1).split(".");
        if (!has(path)) missing.push(`${file}: .Values.${path.join(".")}`);
      }
    }
    expect(missing).toEqual([]);
    // Values read through `index $.Values $component` (hpa, pdb).
    for (const c of ["api", "worker"]) {
      for (const k of ["autoscaling.enabled", "autoscaling.minReplicas", "autoscaling.maxReplicas", "autoscaling.targetCPUUtilizationPercentage", "pdb.enabled", "pdb.minAvailable"]) expect(has([c, ...k.split(".")]), `${c}.${k}`).toBe(true);
    }
  });

  it("has balanced template blocks in every file", () => {
    for (const [file, text] of Object.entries(templates)) {
      const actions = [...text.matchAll(/\{\{-?\s*(\w+)/g)].map((m) => m[1]);
      const opened = actions.filter((a) => a === "if" || a === "range" || a === "with" || a === "define").length;
      const closed = actions.filter((a) => a === "end").length;
      expect(closed, file).toBe(opened);
      expect(text.split("{{").length, file).toBe(text.split("}}").length);
    }
  });

  it("declares the API and worker Deployments, HPA on CPU, PDBs, probes, the migration hook Job and the Secret", () => {
    const api = templates["api-deployment.yaml"] ?? "";
    expect(api).toMatch(/^kind: Deployment$/m);
    expect(api).toMatch(/readinessProbe:\s+httpGet: \{ path: \/readyz, port: http \}/);
    expect(api).toMatch(/livenessProbe:\s+httpGet: \{ path: \/healthz, port: http \}/);
    expect(api).toContain('args: ["apps/api/dist/main.js"]');
    expect(api).toMatch(/secretRef|svc\.envFrom/);
    const worker = templates["worker-deployment.yaml"] ?? "";
    expect(worker).toMatch(/^kind: Deployment$/m);
    expect(worker).toContain('args: ["apps/worker/dist/main.js"]');
    expect(templates["hpa.yaml"]).toMatch(/apiVersion: autoscaling\/v2\nkind: HorizontalPodAutoscaler/);
    expect(templates["hpa.yaml"]).toMatch(/name: cpu/);
    expect(templates["pdb.yaml"]).toMatch(/apiVersion: policy\/v1\nkind: PodDisruptionBudget/);
    const job = templates["migrate-job.yaml"] ?? "";
    expect(job).toMatch(/kind: Job/);
    expect(job).toMatch(/helm\.sh\/hook: pre-install,pre-upgrade/);
    expect(job).toContain('args: ["apps/cli/dist/main.js", "migrate"]');
    expect(templates["secret.yaml"]).toMatch(/kind: Secret/);
    expect(templates["_helpers.tpl"]).toMatch(/secretRef:/);
    for (const entry of ["apps/api/dist/main.js", "apps/worker/dist/main.js"]) expectEntry(entry);
    expect(values).toMatchObject({ podSecurityContext: { runAsNonRoot: true, runAsUser: 10001 }, securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true } });
  });

  it.runIf(onPath("helm", ["version"]))("renders with helm into valid objects of the expected kinds", () => {
    const out = execFileSync("helm", ["template", "svc", dir, "--set", "secrets.DATABASE_URL=postgres://svc@db/svc", "--set", `secrets.SVC_AUDIT_KEY=${"k".repeat(64)}`], { encoding: "utf8" });
    const docs = parseAllDocuments(out).map((d) => d.toJS() as { kind: string; metadata: { name: string } } | null).filter((d) => d !== null);
    expect(docs.map((d) => d.kind).sort()).toEqual(["Deployment", "Deployment", "HorizontalPodAutoscaler", "HorizontalPodAutoscaler", "Job", "PodDisruptionBudget", "PodDisruptionBudget", "Secret", "Service"]);
    expect(() => execFileSync("helm", ["template", "svc", dir], { stdio: "pipe" })).toThrow(/existingSecret/);
  });
});
