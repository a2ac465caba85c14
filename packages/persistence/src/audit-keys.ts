import { createHash, createHmac, randomBytes } from "node:crypto";
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { AuditMac } from "@svc/core";

/** Shortest secret accepted: 32 characters (the generated key file holds 64 hex digits, 256 bits). */
export const AUDIT_KEY_MIN_LENGTH = 32;

/** A key's id: a short digest of the secret, so an id always names the same key and no id needs configuring. */
export function auditKeyIdOf(secret: string): string {
  return `ak_${createHash("sha256").update(`svc.audit.key-id\n${secret}`).digest("hex").slice(0, 16)}`;
}

/**
 * The audit keyring on node:crypto: new records are sealed with the current key; records of
 * earlier keys (kept after a rotation) still verify.
 */
export class HmacAuditKeyring implements AuditMac {
  readonly keyId: string;
  // Raw key bytes: node:crypto HMACs a Buffer key faster than a KeyObject.
  private readonly keys = new Map<string, Buffer>();

  constructor(current: string, previous: readonly string[] = []) {
    for (const secret of [current, ...previous]) {
      if (secret.length < AUDIT_KEY_MIN_LENGTH) throw new RangeError(`an audit key must be at least ${AUDIT_KEY_MIN_LENGTH} characters`);
      this.keys.set(auditKeyIdOf(secret), Buffer.from(secret, "utf8"));
    }
    this.keyId = auditKeyIdOf(current);
  }

  mac(keyId: string, message: string): string | null {
    const key = this.keys.get(keyId);
    return key ? createHmac("sha256", key).update(message, "utf8").digest("hex") : null;
  }

  sha256(message: string): string {
    return createHash("sha256").update(message, "utf8").digest("hex");
  }

  /** Ids of every key this keyring can verify, the current one first. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }
}

export const AUDIT_KEY_FILE = "audit.key";

/**
 * The embedded default's audit key: `<dataDir>/audit.key`, beside the database directory (not in
 * it), created once with 256 random bits (mode 0600) and read on every later start; two processes
 * starting at once end up with the same key.
 */
export function loadOrCreateAuditKeyFile(dataDir: string): { secret: string; file: string; created: boolean } {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, AUDIT_KEY_FILE);
  const created = existsSync(file) ? false : createKeyFile(file);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < AUDIT_KEY_MIN_LENGTH) throw new Error(`${file} does not hold an audit key (at least ${AUDIT_KEY_MIN_LENGTH} characters); restore it from a backup`);
  return { secret, file, created };
}

function createKeyFile(file: string): boolean {
  // Written in full under a private name, then linked into place: the link either creates the
  // key file complete or fails because another process's key is already there.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, `${randomBytes(32).toString("hex")}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return false;
  } finally {
    rmSync(tmp, { force: true });
  }
}
