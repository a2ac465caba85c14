/**
 * Disk full on the embedded data directory: the API runs on PGlite in a small tmpfs (root only:
 * `mount -t tmpfs`), batches of checks fill it. Observed: what the clients get once the disk is
 * full (a 5xx problem+json is the goal; a request that never answers is a failure), whether the
 * process stops on SIGTERM. Then space returns (the tmpfs is remounted larger), the API starts on
 * the same directory and `svc audit verify` must pass: no corruption.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../bench/async/support.js";
import { line, request, SOAK_AUDIT_KEY, startApi, stopApi, sleep } from "./support.js";

export interface DiskFullOptions {
  /** tmpfs size (MB); a fresh data directory takes ~40 MB and the server keeps 64 MB in reserve (SVC_DATA_DIR_MIN_FREE_MB). */
  readonly sizeMb?: number;
  readonly quiet?: boolean;
}

export interface DiskFullResult {
  readonly ok: boolean;
  readonly stored: number;
  /** Answers once the disk was full, by status and code ("timeout": no answer within 10 s). */
  readonly failures: Record<string, number>;
  readonly stoppedOnSigterm: boolean;
  readonly restarted: boolean;
  readonly verify: string;
}

export async function diskFull(o: DiskFullOptions): Promise<DiskFullResult> {
  if (process.getuid?.() !== 0) throw new Error("disk-full mounts a tmpfs: run it as root");
  const mnt = mkdtempSync(join(tmpdir(), "svc-soak-disk-"));
  const dataDir = join(mnt, "svc");
  const env = { SVC_AUDIT_KEY: SOAK_AUDIT_KEY };
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${o.sizeMb ?? 128}m`, "tmpfs", mnt]);
  try {
    let api = await startApi({ dataDir }, env);
    let stored = 0;
    const failures: Record<string, number> = {};
    let failed = 0;
    for (let n = 0; failed < 3 && n < 2_000; n++) {
      const a = await request(api.port, "POST", "/v1/screen/batch", { entities: Array.from({ length: 100 }, (_, i) => ({ entity_value: `shop-${n}-${i}.filling-the-disk-with-checks.com` })) }, {}, 10_000);
      if (a.status === 200) stored += 100;
      else {
        failed++;
        let code = a.status === 0 ? "no answer within 10 s" : "";
        try {
          code ||= (JSON.parse(a.body) as { code: string }).code;
        } catch {
          code ||= "not problem+json";
        }
        const k = `${a.status} ${code}`;
        failures[k] = (failures[k] ?? 0) + 1;
      }
    }
    // SIGTERM first; a process that does not stop within 20 s is killed.
    api.child.kill("SIGTERM");
    const stoppedOnSigterm = await Promise.race([api.exited.then(() => true), sleep(20_000).then(() => false)]);
    if (!stoppedOnSigterm) await stopApi(api, "SIGKILL");
    // Space returns.
    execFileSync("mount", ["-o", "remount,size=512m", mnt]);
    let restarted = false;
    try {
      api = await startApi({ dataDir }, env);
      restarted = (await request(api.port, "POST", "/v1/screen", { entity_value: "after-the-disk-filled.com" })).status === 200;
      await stopApi(api);
    } catch (e) {
      if (!o.quiet) console.error(String(e).slice(0, 2000));
    }
    const v = spawnSync(process.execPath, [join(ROOT, "apps/cli/bin/svc.js"), "audit", "verify", "--account", "acc_admin"], { cwd: ROOT, env: { ...process.env, SVC_DATA_DIR: dataDir, ...env, DATABASE_URL: "" }, encoding: "utf8" });
    const verify = `${v.status === 0 ? "pass" : "FAIL"}: ${(v.stdout + v.stderr).trim().split("\n")[0]}`;
    const clear = Object.keys(failures).every((k) => /^5\d\d /.test(k) && !k.includes("no answer") && !k.includes("not problem"));
    const r: DiskFullResult = { ok: clear && stoppedOnSigterm && restarted && v.status === 0, stored, failures, stoppedOnSigterm, restarted, verify };
    if (!o.quiet) {
      line("checks stored before the disk filled", stored);
      line("answers once full (status code: count)", JSON.stringify(failures));
      line("stopped on SIGTERM within 20 s", stoppedOnSigterm);
      line("started again after space returned, screens", restarted);
      line("svc audit verify", verify);
      line("result", r.ok ? "PASS" : "FAIL");
    }
    return r;
  } finally {
    spawnSync("umount", ["-l", mnt]);
    rmdirSync(mnt);
  }
}
