// The Helm chart deploy/helm/svc rendered for real and its objects checked (decision 0101).
// No helm binary is available here, so tools/deploy/helm-render (Go's text/template + sprig v3 +
// Helm's own functions, see its header for what it does not support) stands in for
// `helm template`. It is built with Debian 12's golang-go and golang-github-masterminds-sprig-dev
// (GOPATH /usr/share/gocode); without them these tests are skipped, saying why.
// Each rendering is parsed as YAML, its objects are checked for what the chart promises
// (selectors, probes, security context, hooks, targets), and all of them are type-checked
// against the Kubernetes 1.30 API types (kubernetes-types) with tsc: an unknown or misspelled
// field, a wrong type or a missing required field fails.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";

const ROOT = resolve(import.meta.dirname, "../..");
const CHART = join(ROOT, "deploy/helm/svc");
const SOURCE = join(ROOT, "tools/deploy/helm-render/main.go");
const GOPATH = "/usr/share/gocode";
const AUDIT_KEY = "k".repeat(64);

/** Why the renderer cannot be built here, or null. */
function missing(): string | null {
  if (spawnSync("go", ["version"], { stdio: "ignore" }).status !== 0) return "no `go` on PATH (Debian: apt-get install golang-go golang-github-masterminds-sprig-dev golang-k8s-sigs-yaml-dev)";
  for (const pkg of ["github.com/Masterminds/sprig", "sigs.k8s.io/yaml"]) {
    if (!existsSync(join(GOPATH, "src", pkg))) return `${pkg} is not in ${GOPATH} (Debian: apt-get install golang-github-masterminds-sprig-dev golang-k8s-sigs-yaml-dev)`;
  }
  return null;
}
const skip = missing();
if (skip) console.warn(`tools/deploy/helm-chart.test.ts: the chart is not rendered: ${skip}`);
const kubectl = spawnSync("kubectl", ["version", "--client"], { stdio: "ignore" }).status === 0;

/** Builds the renderer once per source and Go version, into node_modules/.cache. */
function buildRenderer(): string {
  const goVersion = spawnSync("go", ["version"], { encoding: "utf8" }).stdout;
  const hash = createHash("sha256").update(readFileSync(SOURCE)).update(goVersion).digest("hex").slice(0, 16);
  const dir = join(ROOT, "node_modules/.cache/svc-helm-render");
  const bin = join(dir, `helm-render-${hash}`);
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const tmp = `${bin}.${process.pid}`;
  const env = { ...process.env, GO111MODULE: "off", GOPATH, GOFLAGS: "", GOCACHE: join(tmpdir(), "svc-helm-render-gocache") };
  const built = spawnSync("go", ["build", "-o", tmp, "./tools/deploy/helm-render"], { cwd: ROOT, env, encoding: "utf8", timeout: 240_000 });
  if (built.status !== 0) throw new Error(`go build of tools/deploy/helm-render failed:\n${built.stderr}`);
  renameSync(tmp, bin);
  return bin;
}

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  stringData?: Record<string, string>;
  type?: string;
};
interface Container {
  name: string;
  image: string;
  args: string[];
  ports?: { name: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { secretRef?: { name: string } }[];
  readinessProbe?: { httpGet: { path: string; port: string | number } };
  livenessProbe?: { httpGet: { path: string; port: string | number } };
  startupProbe?: { httpGet: { path: string; port: string | number } };
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; securityContext?: Record<string, unknown>; restartPolicy?: string; terminationGracePeriodSeconds?: number };
}

let bin = "";
let work = "";
/** Every object of every successful rendering, for the type check. */
const rendered: { scenario: string; output: string; objects: Obj[] }[] = [];

function run(args: string[], chart = CHART): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(bin, [...args, chart], { encoding: "utf8", timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Renders, parses every document as YAML (no errors, no warnings), and keeps the objects. */
function render(scenario: string, args: string[]): Obj[] {
  const r = run(args);
  expect(r.stderr, scenario).toBe("");
  expect(r.status, scenario).toBe(0);
  const docs = parseAllDocuments(r.stdout);
  const objects: Obj[] = [];
  for (const d of docs) {
    expect(d.errors.map(String), scenario).toEqual([]);
    expect(d.warnings.map(String), scenario).toEqual([]);
    const o = d.toJS() as Obj | null;
    if (o !== null) objects.push(o);
  }
  rendered.push({ scenario, output: r.stdout, objects });
  return objects;
}

const byKind = (objs: Obj[], kind: string): Obj[] => objs.filter((o) => o.kind === kind);
const one = (objs: Obj[], kind: string, name: string): Obj => {
  const found = objs.filter((o) => o.kind === kind && o.metadata.name === name);
  expect(found.map((o) => `${o.kind}/${o.metadata.name}`), `${kind}/${name}`).toEqual([`${kind}/${name}`]);
  return found[0] as Obj;
};
const template = (o: Obj): PodTemplate => (o.spec as { template: PodTemplate }).template;
const matches = (selector: Record<string, string>, labels: Record<string, string>): boolean => Object.entries(selector).every(([k, v]) => labels[k] === v);

const DNS_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
const LABEL_VALUE = /^(?:[a-z\d](?:[-\w.]*[a-z\d])?)?$/i;

interface Expect {
  release: string;
  fullname: string;
  secretName: string;
  image: string;
  apiPort: number;
  metricsPort: number;
}

/** What every rendering must satisfy, whatever the values. */
function checkObjects(objs: Obj[], e: Expect): void {
  const seen = new Set<string>();
  for (const o of objs) {
    expect(typeof o.apiVersion, JSON.stringify(o.metadata)).toBe("string");
    expect(typeof o.kind).toBe("string");
    expect(o.metadata.name, o.kind).toMatch(DNS_LABEL);
    expect(seen.has(`${o.kind}/${o.metadata.name}`), `duplicate ${o.kind}/${o.metadata.name}`).toBe(false);
    seen.add(`${o.kind}/${o.metadata.name}`);
    for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
      expect(typeof v, `${o.kind}/${o.metadata.name} label ${k}`).toBe("string");
      expect(v.length <= 63 && LABEL_VALUE.test(v), `${o.kind}/${o.metadata.name} label ${k}=${v}`).toBe(true);
    }
    expect(o.metadata.labels).toMatchObject({ "app.kubernetes.io/name": "svc", "app.kubernetes.io/instance": e.release, "app.kubernetes.io/managed-by": "Helm" });
    for (const [k, v] of Object.entries(o.metadata.annotations ?? {})) expect(typeof v, `${o.kind}/${o.metadata.name} annotation ${k}`).toBe("string");
  }
  const podTemplates: [string, PodTemplate][] = [];
  for (const d of byKind(objs, "Deployment")) {
    expect(d.apiVersion).toBe("apps/v1");
    const sel = (d.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
    expect(matches(sel, template(d).metadata.labels), `${d.metadata.name}: selector ${JSON.stringify(sel)} vs template labels`).toBe(true);
    expect(sel).toMatchObject({ "app.kubernetes.io/name": "svc", "app.kubernetes.io/instance": e.release });
    podTemplates.push([d.metadata.name, template(d)]);
    // The other Deployment's pods are not selected by this one.
    for (const other of byKind(objs, "Deployment")) if (other !== d) expect(matches(sel, template(other).metadata.labels), `${d.metadata.name} selects ${other.metadata.name}'s pods`).toBe(false);
  }
  for (const j of byKind(objs, "Job")) podTemplates.push([j.metadata.name, template(j)]);
  for (const [name, t] of podTemplates) {
    expect(t.spec.securityContext, name).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
    expect(t.spec.securityContext?.runAsUser as number, name).toBeGreaterThan(0);
    for (const c of t.spec.containers) {
      expect(c.image, name).toBe(e.image);
      expect(c.securityContext, name).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
      expect(c.resources?.requests?.memory, name).toMatch(/^\d+Mi$/);
      expect(c.resources?.requests?.cpu, name).toMatch(/^\d+m$/);
      expect(c.resources?.limits?.memory, name).toMatch(/^\d+Mi$/);
      expect(c.envFrom, name).toEqual([{ secretRef: { name: e.secretName } }]);
      const envNames = (c.env ?? []).map((v) => v.name);
      expect(new Set(envNames).size, `${name}: env names ${envNames.join(",")}`).toBe(envNames.length);
      for (const v of c.env ?? []) expect(typeof v.value, `${name}: env ${v.name}`).toBe("string");
      // A probe's named port is one of the container's ports.
      for (const p of [c.readinessProbe, c.livenessProbe, c.startupProbe]) {
        if (p) expect(c.ports?.map((x) => x.name), `${name}: probe port ${p.httpGet.port}`).toContain(p.httpGet.port);
      }
    }
  }

  const api = one(objs, "Deployment", `${e.fullname}-api`);
  const [apiC] = template(api).spec.containers as [Container];
  expect(apiC.args).toEqual(["apps/api/dist/main.js"]);
  expect(apiC.ports).toEqual([{ name: "http", containerPort: e.apiPort, protocol: "TCP" }]);
  expect(apiC.env).toEqual(expect.arrayContaining([{ name: "PORT", value: String(e.apiPort) }, { name: "HOST", value: "0.0.0.0" }]));
  expect(apiC.readinessProbe?.httpGet).toEqual({ path: "/readyz", port: "http" });
  expect(apiC.livenessProbe?.httpGet).toEqual({ path: "/healthz", port: "http" });
  expect(apiC.startupProbe?.httpGet).toEqual({ path: "/healthz", port: "http" });
  expect((api.spec as { strategy: unknown }).strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
  expect(template(api).spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(60);

  const worker = one(objs, "Deployment", `${e.fullname}-worker`);
  const [workerC] = template(worker).spec.containers as [Container];
  expect(workerC.args).toEqual(["apps/worker/dist/main.js"]);
  expect(workerC.ports).toEqual([{ name: "metrics", containerPort: e.metricsPort, protocol: "TCP" }]);
  expect(workerC.env).toEqual(expect.arrayContaining([{ name: "SVC_METRICS_PORT", value: String(e.metricsPort) }, { name: "SVC_METRICS_HOST", value: "0.0.0.0" }]));
  expect(workerC.livenessProbe?.httpGet).toEqual({ path: "/metrics", port: "metrics" });
  expect(template(worker).spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(60);

  // The Service reaches the API's pods only, on its named port.
  const svc = one(objs, "Service", `${e.fullname}-api`);
  const svcSpec = svc.spec as { selector: Record<string, string>; ports: { targetPort: string }[] };
  expect(matches(svcSpec.selector, template(api).metadata.labels)).toBe(true);
  expect(matches(svcSpec.selector, template(worker).metadata.labels)).toBe(false);
  for (const p of svcSpec.ports) expect(apiC.ports?.map((x) => x.name)).toContain(p.targetPort);

  // Each HPA scales a Deployment of this rendering, which then leaves `replicas` to it.
  for (const h of byKind(objs, "HorizontalPodAutoscaler")) {
    const s = h.spec as { scaleTargetRef: { apiVersion: string; kind: string; name: string }; minReplicas: number; maxReplicas: number };
    const target = one(objs, "Deployment", s.scaleTargetRef.name);
    expect(s.scaleTargetRef).toEqual({ apiVersion: target.apiVersion, kind: "Deployment", name: target.metadata.name });
    expect(s.minReplicas).toBeGreaterThanOrEqual(1);
    expect(s.maxReplicas).toBeGreaterThanOrEqual(s.minReplicas);
    expect((target.spec as { replicas?: number }).replicas, `${target.metadata.name} sets replicas under an HPA`).toBeUndefined();
  }
  for (const d of byKind(objs, "Deployment")) {
    const scaled = byKind(objs, "HorizontalPodAutoscaler").some((h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === d.metadata.name);
    if (!scaled) expect((d.spec as { replicas?: number }).replicas, `${d.metadata.name} without an HPA`).toBeGreaterThanOrEqual(1);
  }
  // Each PDB selects the pods of exactly one Deployment.
  for (const p of byKind(objs, "PodDisruptionBudget")) {
    const sel = (p.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
    const selected = [...byKind(objs, "Deployment"), ...byKind(objs, "Job")].filter((d) => matches(sel, template(d).metadata.labels));
    expect(selected.map((d) => d.metadata.name), p.metadata.name).toEqual([p.metadata.name]);
  }
  // The migration runs as a hook, after the chart's Secret (a hook too) exists.
  for (const j of byKind(objs, "Job")) {
    expect(j.metadata.annotations).toMatchObject({ "helm.sh/hook": "pre-install,pre-upgrade", "helm.sh/hook-delete-policy": "before-hook-creation,hook-succeeded" });
    expect(template(j).spec.restartPolicy).toBe("Never");
    expect(template(j).spec.containers[0]?.args).toEqual(["apps/cli/dist/main.js", "migrate"]);
    for (const s of byKind(objs, "Secret")) expect(Number(s.metadata.annotations?.["helm.sh/hook-weight"])).toBeLessThan(Number(j.metadata.annotations?.["helm.sh/hook-weight"]));
  }
}

/** The `helm install` line of docs/operations.md, as --set arguments. */
function documentedInstall(): string[] {
  const line = readFileSync(join(ROOT, "docs/operations.md"), "utf8").split("\n").find((l) => l.trim().startsWith("helm install svc deploy/helm/svc"));
  expect(line, "docs/operations.md has a `helm install svc deploy/helm/svc …` line").toBeDefined();
  return ["--name", "svc", ...[...(line as string).matchAll(/--set (\S+)/g)].flatMap((m) => ["--set", m[1] as string])];
}

const kinds = (objs: Obj[]): string[] => objs.map((o) => o.kind).sort();
const base: Expect = { release: "svc", fullname: "svc", secretName: "svc-secrets", image: "svc:0.1.0", apiPort: 8080, metricsPort: 9464 };
const withSecrets = ["--set", "secrets.DATABASE_URL=postgres://svc:pw@db:5432/svc", "--set", `secrets.SVC_AUDIT_KEY=${AUDIT_KEY}`];

describe.skipIf(skip !== null)(`Helm chart rendered by tools/deploy/helm-render${skip ? ` (skipped: ${skip})` : ""}`, () => {
  beforeAll(() => {
    bin = buildRenderer();
    work = mkdtempSync(join(tmpdir(), "svc-helm-"));
  }, 300_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("refuses to render without existingSecret or both secrets (a 32-character audit key), with the chart's message", () => {
    for (const args of [[], ["--set", "secrets.DATABASE_URL=postgres://db/svc"], ["--set", "secrets.DATABASE_URL=postgres://db/svc", "--set", `secrets.SVC_AUDIT_KEY=${"k".repeat(31)}`], ["--set", `secrets.SVC_AUDIT_KEY=${AUDIT_KEY}`]]) {
      const r = run(args);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(/^Error: execution error at \(svc\/templates\/secret\.yaml:\d+:\d+\): set existingSecret, or secrets\.DATABASE_URL and secrets\.SVC_AUDIT_KEY \(at least 32 characters\)\n$/);
      expect(r.stdout).toBe("");
    }
    expect(run(["--set", "secrets.DATABASE_URL=postgres://db/svc", "--set", `secrets.SVC_AUDIT_KEY=${"k".repeat(32)}`]).status).toBe(0);
    // Chart.yaml's kubeVersion, as helm checks it against the cluster's (or --kube-version).
    expect(run(["--set", "existingSecret=s", "--kube-version", "v1.24.9"]).stderr).toBe("Error: chart requires kubeVersion: >=1.25.0-0 which is incompatible with Kubernetes v1.24.9\n");
    expect(run(["--set", "existingSecret=s", "--kube-version", "v1.25.0"]).status).toBe(0);
  });

  // The renderer itself, on a small chart whose `helm template` output follows from Helm's rules.
  it("helm-render follows Helm's rules: partials, include/tpl/required/lookup, <no value>, float64 values, --set typing and null, empty files, kind order, hooks by weight", () => {
    const chart = join(work, "demo");
    mkdirSync(join(chart, "templates"), { recursive: true });
    mkdirSync(join(chart, "files"));
    writeFileSync(join(chart, "Chart.yaml"), "apiVersion: v2\nname: demo\nversion: 1.2.3\nappVersion: \"9\"\n");
    writeFileSync(join(chart, "values.yaml"), "big: 1000000\nsmall: 8080\ntext: hello\nnested: { keep: 1, drop: 2 }\n");
    writeFileSync(join(chart, "files/greeting.txt"), "hi\n");
    writeFileSync(join(chart, "templates/_helpers.tpl"), '{{- define "demo.name" -}}{{ .Chart.Name }}-{{ .Release.Name }}{{- end -}}\nnot rendered\n');
    writeFileSync(join(chart, "templates/a.yaml"), [
      "apiVersion: v1",
      "kind: ConfigMap",
      "metadata:",
      '  name: {{ include "demo.name" . }}',
      "  namespace: {{ .Release.Namespace }}",
      "data:",
      "  big: {{ .Values.big | quote }}",
      "  small: {{ .Values.small | quote }}",
      '  kinds: {{ printf "%s %s %s" (kindOf .Values.m) (kindOf .Values.n) (kindOf .Values.small) | quote }}',
      '  missing: "{{ .Values.nope }}"',
      "  nested: {{ .Values.nested | toJson | quote }}",
      '  tpl: {{ tpl "{{ .Values.text }}-{{ .Chart.Version }}" . | quote }}',
      '  hpa: {{ .Capabilities.APIVersions.Has "autoscaling/v2" | quote }}',
      "  kube: {{ .Capabilities.KubeVersion.Version | quote }}",
      "  install: {{ .Release.IsInstall | quote }}",
      '  file: {{ .Files.Get "files/greeting.txt" | trim | quote }}',
      '  lookup: {{ lookup "v1" "Secret" "ns" "x" | len | quote }}',
      "  template: {{ .Template.Name | quote }}",
      "{{- if .Values.none }}",
      "---",
      "apiVersion: v1",
      "kind: Secret",
      "metadata: { name: never }",
      "{{- end }}",
      "---",
      "apiVersion: batch/v1",
      "kind: Job",
      'metadata: { name: late, annotations: { helm.sh/hook: post-install, helm.sh/hook-weight: "5" } }',
      "---",
      "apiVersion: batch/v1",
      "kind: Job",
      'metadata: { name: early, annotations: { helm.sh/hook: pre-install, helm.sh/hook-weight: "-5" } }',
      "",
    ].join("\n"));
    writeFileSync(join(chart, "templates/b.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata: { name: first }\n");
    writeFileSync(join(chart, "templates/c.yaml"), '{{- if .Values.check }}{{ required "set check.value" .Values.check.value }}{{ end }}\n');
    const r = run(["--name", "rel", "--namespace", "team", "--set", "nested.drop=null,text=world", "--set", "m=12,n=012"], chart);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^---\n# Source: demo\/templates\/b\.yaml\napiVersion: v1\nkind: Namespace\n/);
    const objs = parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj & { data?: Record<string, string> });
    expect(objs.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(["Namespace/first", "ConfigMap/demo-rel", "Job/early", "Job/late"]);
    expect(objs[1]?.metadata).toEqual({ name: "demo-rel", namespace: "team" });
    expect(objs[1]?.data).toEqual({
      big: "1e+06", // Helm reads values as JSON numbers (float64): a million prints so
      small: "8080",
      kinds: "int64 string float64", // --set: integers not starting with 0 are int64
      missing: "",
      nested: '{"keep":1}',
      tpl: "world-1.2.3",
      hpa: "true",
      kube: "v1.32.0",
      install: "true",
      file: "hi",
      lookup: "0",
      template: "demo/templates/a.yaml",
    });
    const failed = run(["--set", "check.on=true"], chart);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/^Error: execution error at \(demo\/templates\/c\.yaml:1:\d+\): set check\.value\n$/);
  });

  it("renders docs/operations.md's install (existingSecret, image) into the API and worker with their HPAs, PDBs, Service and migration hook", () => {
    const objs = render("docs", documentedInstall());
    expect(kinds(objs)).toEqual(["Deployment", "Deployment", "HorizontalPodAutoscaler", "HorizontalPodAutoscaler", "Job", "PodDisruptionBudget", "PodDisruptionBudget", "Service"]);
    checkObjects(objs, { ...base, image: "registry.example/svc:0.1.0" });
  });

  it("makes the Secret from secrets.* as a hook before the migration, and rolls the pods when it changes", () => {
    const objs = render("secret", ["--name", "svc", ...withSecrets]);
    expect(kinds(objs)).toEqual(["Deployment", "Deployment", "HorizontalPodAutoscaler", "HorizontalPodAutoscaler", "Job", "PodDisruptionBudget", "PodDisruptionBudget", "Secret", "Service"]);
    checkObjects(objs, base);
    const secret = one(objs, "Secret", "svc-secrets");
    expect(secret.type).toBe("Opaque");
    expect(secret.stringData).toEqual({ DATABASE_URL: "postgres://svc:pw@db:5432/svc", SVC_AUDIT_KEY: AUDIT_KEY });
    expect(secret.metadata.annotations).toMatchObject({ "helm.sh/hook": "pre-install,pre-upgrade", "helm.sh/hook-delete-policy": "before-hook-creation" });
    // The output lists the hooks last, the Secret before the Job (`helm template` order).
    expect(objs.slice(-2).map((o) => o.kind)).toEqual(["Secret", "Job"]);
    const checksum = (o: Obj[]) => template(one(o, "Deployment", "svc-api")).metadata.annotations?.["checksum/config"];
    const other = render("secret-rotated", ["--name", "svc", ...withSecrets, "--set", `secrets.SVC_AUDIT_KEY=${"r".repeat(64)}`]);
    expect(checksum(objs)).toMatch(/^[0-9a-f]{64}$/);
    expect(checksum(other)).not.toBe(checksum(objs));
  });

  it("without autoscaling, PDBs or migrations: fixed replicas, and no HPA, PDB or Job", () => {
    const objs = render("fixed", ["--name", "prod", ...withSecrets, "--set", "api.autoscaling.enabled=false,worker.autoscaling.enabled=false", "--set", "api.pdb.enabled=false,worker.pdb.enabled=false", "--set", "migrations.enabled=false", "--set", "api.replicas=3"]);
    expect(kinds(objs)).toEqual(["Deployment", "Deployment", "Secret", "Service"]);
    checkObjects(objs, { ...base, release: "prod", fullname: "prod-svc", secretName: "prod-svc-secrets" });
    expect((one(objs, "Deployment", "prod-svc-api").spec as { replicas: number }).replicas).toBe(3);
    expect((one(objs, "Deployment", "prod-svc-worker").spec as { replicas: number }).replicas).toBe(2);
    // One HPA kept, the other Deployment fixed.
    const mixed = render("mixed", ["--name", "svc", "--set", "existingSecret=s", "--set", "worker.autoscaling.enabled=false"]);
    expect(byKind(mixed, "HorizontalPodAutoscaler").map((h) => h.metadata.name)).toEqual(["svc-api"]);
    checkObjects(mixed, { ...base, secretName: "s" });
  });

  it("a values file: settings as strings (whole numbers as integers, maps as JSON), a component's env over the shared one, scheduling and pull secrets", () => {
    const values = join(work, "values.yaml");
    writeFileSync(values, [
      "existingSecret: svc-env",
      "image: { repository: registry.example/svc, tag: '2.0.0', pullPolicy: Always }",
      "imagePullSecrets: [{ name: regcred }]",
      "podAnnotations: { team: risk }",
      "nodeSelector: { pool: apps }",
      "tolerations: [{ key: dedicated, operator: Equal, value: svc, effect: NoSchedule }]",
      "affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: kubernetes.io/hostname, labelSelector: { matchLabels: { app.kubernetes.io/name: svc } } } }] } }",
      "env: { LOG_LEVEL: warn, SVC_BODY_LIMIT_BYTES: 1048576, SVC_WORKER_PAUSE_MS: 0, SVC_SOURCE_TIMEOUT_MS: 2500, SVC_PLANS: { free: { per_minute: 10 } } }",
      "api: { port: 9090, env: { LOG_LEVEL: debug, SVC_PUBLIC_URL: 'https://svc.example' }, service: { type: LoadBalancer, port: 443 } }",
      "worker: { env: { SVC_WORKER_CONCURRENCY: 8 } }",
      "metrics: { port: 9100, podAnnotations: false }",
      "",
    ].join("\n"));
    const objs = render("values", ["--name", "svc", "-f", values]);
    checkObjects(objs, { ...base, secretName: "svc-env", image: "registry.example/svc:2.0.0", apiPort: 9090, metricsPort: 9100 });
    const env = (name: string) => Object.fromEntries((template(one(objs, "Deployment", name)).spec.containers[0]?.env ?? []).map((v) => [v.name, v.value]));
    expect(env("svc-api")).toEqual({ PORT: "9090", HOST: "0.0.0.0", LOG_LEVEL: "debug", SVC_BODY_LIMIT_BYTES: "1048576", SVC_WORKER_PAUSE_MS: "0", SVC_SOURCE_TIMEOUT_MS: "2500", SVC_PLANS: '{"free":{"per_minute":10}}', SVC_PUBLIC_URL: "https://svc.example" });
    expect(env("svc-worker")).toEqual({ SVC_METRICS_PORT: "9100", SVC_METRICS_HOST: "0.0.0.0", LOG_LEVEL: "warn", SVC_BODY_LIMIT_BYTES: "1048576", SVC_WORKER_PAUSE_MS: "0", SVC_SOURCE_TIMEOUT_MS: "2500", SVC_PLANS: '{"free":{"per_minute":10}}', SVC_WORKER_CONCURRENCY: "8" });
    const job = byKind(objs, "Job")[0] as Obj;
    expect(template(job).spec.containers[0]?.env?.find((v) => v.name === "LOG_LEVEL")).toEqual({ name: "LOG_LEVEL", value: "warn" });
    const workerPod = template(one(objs, "Deployment", "svc-worker"));
    expect(workerPod.metadata.annotations).not.toHaveProperty("prometheus.io/scrape");
    expect(workerPod.metadata.annotations).toMatchObject({ team: "risk" });
    expect(workerPod.spec).toMatchObject({ imagePullSecrets: [{ name: "regcred" }], nodeSelector: { pool: "apps" }, tolerations: [{ key: "dedicated" }] });
    expect((one(objs, "Service", "svc-api").spec as { type: string; ports: unknown[] })).toMatchObject({ type: "LoadBalancer", ports: [{ name: "http", port: 443, targetPort: "http", protocol: "TCP" }] });
  });

  // kubectl cannot validate without a server (create/apply --dry-run=client need its API
  // discovery), but `kubectl kustomize` runs offline: it parses each document as a Kubernetes
  // object (apiVersion, kind, metadata.name required) and refuses duplicate ids.
  it.runIf(kubectl)("`kubectl kustomize` (offline) reads the same objects from every rendering", () => {
    expect(rendered.length).toBeGreaterThan(0);
    const key = (o: Obj) => `${o.apiVersion}/${o.kind}/${o.metadata.name}`;
    const sorted = (objs: Obj[]) => [...objs].sort((a, b) => key(a).localeCompare(key(b)));
    for (const r of rendered) {
      const dir = join(work, `kustomize-${r.scenario}`);
      mkdirSync(dir);
      writeFileSync(join(dir, "rendered.yaml"), r.output);
      writeFileSync(join(dir, "kustomization.yaml"), "resources: [rendered.yaml]\n");
      const k = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8", timeout: 60_000 });
      expect(k.stderr, r.scenario).toBe("");
      expect(k.status, r.scenario).toBe(0);
      const objects = parseAllDocuments(k.stdout).map((d) => d.toJS() as Obj);
      expect(sorted(objects), r.scenario).toEqual(sorted(r.objects));
    }
  });

  it("all rendered objects type-check against the Kubernetes 1.30 API types; a misspelled field would not", () => {
    expect(rendered.map((r) => r.scenario)).toEqual(["docs", "secret", "secret-rotated", "fixed", "mixed", "values"]);
    const types = dirname(createRequire(import.meta.url).resolve("kubernetes-types/package.json"));
    const typeOf: Record<string, [string, string]> = {
      "apps/v1/Deployment": ["apps/v1", "Deployment"],
      "v1/Service": ["core/v1", "Service"],
      "v1/Secret": ["core/v1", "Secret"],
      "batch/v1/Job": ["batch/v1", "Job"],
      "autoscaling/v2/HorizontalPodAutoscaler": ["autoscaling/v2", "HorizontalPodAutoscaler"],
      "policy/v1/PodDisruptionBudget": ["policy/v1", "PodDisruptionBudget"],
    };
    const file = (objects: { label: string; obj: Obj }[]): string => {
      const used = new Map<string, string>();
      const lines = objects.map(({ label, obj }, i) => {
        const t = typeOf[`${obj.apiVersion}/${obj.kind}`];
        expect(t, `${label}: ${obj.apiVersion} ${obj.kind} is not an API the chart should use`).toBeDefined();
        const [mod, name] = t as [string, string];
        const alias = `${name}_${mod.replace(/\W/g, "_")}`;
        used.set(alias, `import type { ${name} as ${alias} } from ${JSON.stringify(join(types, mod))};`);
        return `// ${label}\nexport const o${i}: ${alias} = ${JSON.stringify(obj, null, 2)};`;
      });
      return [...used.values(), ...lines].join("\n") + "\n";
    };
    const all = rendered.flatMap((r) => r.objects.map((obj) => ({ label: `${r.scenario}: ${obj.kind}/${obj.metadata.name}`, obj })));
    writeFileSync(join(work, "objects.ts"), file(all));
    // The check can fail: the API Deployment with a misspelled field, with a number where a
    // string goes, and without a required field (one fault each: tsc reports one per object).
    const api = all.find((a) => a.obj.kind === "Deployment")?.obj as Obj;
    const faulty = (fault: (c: Container & Record<string, unknown>) => void): Obj => {
      const copy = structuredClone(api);
      fault(template(copy).spec.containers[0] as Container & Record<string, unknown>);
      return copy;
    };
    writeFileSync(join(work, "canary.ts"), file([
      { label: "misspelled", obj: faulty((c) => { c.readinesProbe = c.readinessProbe; delete c.readinessProbe; }) },
      { label: "number", obj: faulty((c) => { (c.env as unknown[]).push({ name: "N", value: 1 }); }) },
      { label: "missing", obj: faulty((c) => { delete (c as Partial<Container>).name; }) },
    ]));
    writeFileSync(join(work, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", types: [], skipLibCheck: true }, files: ["objects.ts", "canary.ts"] }));
    const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(work, "tsconfig.json"), "--pretty", "false"], { encoding: "utf8", timeout: 120_000 });
    const errors = tsc.stdout.split("\n").filter((l) => /error TS\d+/.test(l));
    expect(errors.filter((l) => l.includes("objects.ts"))).toEqual([]);
    const canary = errors.filter((l) => l.includes("canary.ts")).join("\n");
    expect(canary).toMatch(/'"readinesProbe"' does not exist in type 'Container'/);
    expect(canary).toMatch(/Type 'number' is not assignable to type 'string'/);
    expect(canary).toMatch(/Property 'name' is missing/);
    expect(errors.every((l) => l.includes("objects.ts") || l.includes("canary.ts")), tsc.stdout).toBe(true);
  }, 120_000);
});
