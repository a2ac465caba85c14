import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export interface RunningScript {
  /** What `ready` returned from the output. */
  readonly port: number;
  /** Everything the process wrote so far, stdout and stderr together. */
  output(): string;
  /** SIGTERM to the script's process group (npm and what it started); resolves when it exited. */
  stop(): Promise<void>;
}

/**
 * `npm run --silent <script>` from the repository's root, as the README starts a process, on embedded
 * storage whatever this shell has in DATABASE_URL, with `env` on top. Resolves once `ready` finds the
 * port it listens on in its output (complete lines only); rejects if the process exits first.
 */
export async function startNpmScript(script: string, env: Record<string, string>, ready: (line: string) => number | null): Promise<RunningScript> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child: ChildProcess = spawn("npm", ["run", "--silent", script], { cwd: ROOT, detached: true, env: { ...inherited, ...env } });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (b: Buffer): void => {
      output += b.toString("utf8");
      for (const line of output.split("\n").slice(0, -1)) {
        const p = ready(line);
        if (p !== null) resolve(p);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`npm run ${script} exited (${code}): ${output}`)));
  });
  return {
    port,
    output: () => output,
    stop: async () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    },
  };
}
