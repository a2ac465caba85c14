import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * `svc` as installed: bin/svc.js, which runs the compiled dist/ (tools/test-build.ts compiles every
 * workspace once before the tests, so the launcher's own up-to-date check finds nothing to do).
 */
export const BIN = fileURLToPath(new URL("../bin/svc.js", import.meta.url));

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a fresh shell: nothing that would change how svc behaves. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["SVC_URL", "SVC_API_KEY", "NO_COLOR", "FORCE_COLOR", "SVC_DATA_DIR", "DATABASE_URL", "SVC_BOOTSTRAP_KEY", "SVC_AUDIT_KEY", "PORT", "HOST", "LOG_LEVEL", "SVC_DEBUG"]) delete env[k];
  return { ...env, ...extra };
}

/** Runs `svc` as a real process, off a terminal. */
export function svc(args: readonly string[], o: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: o.cwd ?? process.cwd(), env: cleanEnv(o.env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(o.input ?? "");
  });
}

/** Quotes for /bin/sh. */
export const sh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `svc` on a pseudo-terminal (util-linux `script`): stdout and stderr are both the TTY. */
export function svcOnTty(args: readonly string[], o: { env?: Record<string, string>; cwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const cmd = [process.execPath, BIN, ...args].map(sh).join(" ");
    const child = spawn("script", ["-qec", `stty cols 120 2>/dev/null; ${cmd}`, "/dev/null"], { cwd: o.cwd ?? process.cwd(), env: cleanEnv({ TERM: "xterm-256color", ...o.env }), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr: "" }));
  });
}
