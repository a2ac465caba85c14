import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataDirInUseError, dataDirInUseCause, LOCK_FILE, lockDataDir } from "./data-dir-lock.js";
import { openDataSource } from "./data-source.js";

/** A process that is alive for the test (a node that waits), and one that has exited. */
const aliveProcess = () => spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
const deadPid = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve(child.pid as number));
  });

describe("data directory lock (one process per embedded database)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-lock-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is exclusive within this process too, and free again once released", () => {
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir).release();
  });

  it("refuses while another live process holds it, naming its pid and the URL it noted", async () => {
    const holder = aliveProcess();
    try {
      writeFileSync(join(dir, LOCK_FILE), `${holder.pid}\nhttp://127.0.0.1:8123\n`);
      let err: unknown;
      try {
        lockDataDir(dir);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DataDirInUseError);
      expect(err).toMatchObject({ pid: holder.pid, url: "http://127.0.0.1:8123", code: "data_dir.in_use" });
      expect((err as Error).message).toBe(`the data directory ${dir} is in use by another svc process (pid ${holder.pid}) serving http://127.0.0.1:8123`);
      // The holder's file is left alone.
      expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(`${holder.pid}\nhttp://127.0.0.1:8123\n`);
    } finally {
      holder.kill("SIGKILL");
    }
  });

  it("takes over a stale lock whose holder is gone (killed), and a leftover with its own pid", async () => {
    writeFileSync(join(dir, LOCK_FILE), `${await deadPid()}\n`);
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    lock.release();
    // A container restarted with the same pid finds its previous run's file: not held here, so stale.
    writeFileSync(join(dir, LOCK_FILE), `${process.pid}\n`);
    lockDataDir(dir).release();
  });

  it("note() records the URL for those refused; release never removes a file another process took over", () => {
    const lock = lockDataDir(dir);
    lock.note("http://127.0.0.1:9000");
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(`${process.pid}\nhttp://127.0.0.1:9000\n`);
    writeFileSync(join(dir, LOCK_FILE), "1\n");
    lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe("1\n");
  });

  it("openDataSource on a held directory fails with DataDirInUseError before PGlite touches it", async () => {
    const data = join(dir, "pgdata");
    mkdirSync(data);
    const holder = aliveProcess();
    try {
      writeFileSync(join(data, LOCK_FILE), `${holder.pid}\n`);
      const err = await openDataSource({ dataDir: data }).then(() => null, (e: unknown) => e);
      expect(dataDirInUseCause(err)?.pid).toBe(holder.pid);
      expect(readdirSync(data)).toEqual([LOCK_FILE]);
    } finally {
      holder.kill("SIGKILL");
    }
  });
});
