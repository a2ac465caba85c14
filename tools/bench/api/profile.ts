// Self time per function from a V8 .cpuprofile (written by `node --cpu-prof`), and per area
// (our packages, each dependency, node internals, GC, idle).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  readonly file: string;
  /** Busy time sampled (idle excluded); shares are of this. */
  readonly totalMs: number;
  readonly idleMs: number;
  readonly functions: readonly { name: string; where: string; ms: number; share: number }[];
  readonly areas: readonly { area: string; ms: number; share: number }[];
}

const root = process.cwd();

function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const path = url.replace(/^file:\/\//, "");
  const nm = path.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = path.slice(nm + "/node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? "?");
  }
  const rel = relative(root, path);
  const m = /^(apps|packages)\/([^/]+)/.exec(rel);
  return m ? `${m[1]}/${m[2]}` : rel;
}

/**
 * The main thread's .cpuprofile in `dir` (CPU.<date>.<time>.<pid>.<thread>.<seq>: thread 0; the
 * others are worker threads such as tsx's module loader), summarised: the top `top` functions by
 * self time.
 */
export function summariseProfile(dir: string, top = 20, window?: { fromMs: number; toMs: number }): ProfileSummary | null {
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort();
  const file = files.find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) ?? files.at(-1);
  if (!file) return null;
  const p = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Sample times from the start of the profile (≈ process start); only those inside `window` count.
  let at = 0;
  p.samples.forEach((id, i) => {
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    at += dt;
    if (window && (at < window.fromMs || at > window.toMs)) return;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
  const fns = new Map<string, { name: string; where: string; ms: number }>();
  const areas = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === "(idle)") {
      idle += ms;
      continue;
    }
    total += ms;
    const name = functionName || "(anonymous)";
    const where = url ? `${relative(root, url.replace(/^file:\/\//, "")).replace(/^(\.\.\/)+/, "")}:${lineNumber + 1}` : "";
    const key = `${name}@${where}`;
    const f = fns.get(key) ?? { name, where, ms: 0 };
    f.ms += ms;
    fns.set(key, f);
    const area = areaOf(url, name);
    areas.set(area, (areas.get(area) ?? 0) + ms);
  }
  const share = (ms: number) => (total > 0 ? ms / total : 0);
  return {
    file: join(dir, file),
    totalMs: total,
    idleMs: idle,
    functions: [...fns.values()].sort((a, b) => b.ms - a.ms).slice(0, top).map((f) => ({ ...f, share: share(f.ms) })),
    areas: [...areas.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([area, ms]) => ({ area, ms, share: share(ms) })),
  };
}

export function printProfile(title: string, s: ProfileSummary): void {
  console.log(`\n-- CPU profile: ${title} (${(s.totalMs / 1000).toFixed(1)} s busy, ${(s.idleMs / 1000).toFixed(1)} s idle; shares of busy time; ${s.file})`);
  console.log("top self time by function:");
  for (const f of s.functions) console.log(`  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.name}  ${f.where}`);
  console.log("self time by area:");
  for (const a of s.areas) console.log(`  ${(a.share * 100).toFixed(1).padStart(5)} %  ${a.area}`);
}
