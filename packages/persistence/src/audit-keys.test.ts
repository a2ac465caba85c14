import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AUDIT_KEY_FILE, auditKeyIdOf, HmacAuditKeyring, loadOrCreateAuditKeyFile } from "./audit-keys.js";

describe("audit key file", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), "svc-audit-key-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("is created once (256 random bits, owner-only) and reused on every later start", () => {
    const dir = fresh();
    const first = loadOrCreateAuditKeyFile(dir);
    expect(first).toMatchObject({ created: true, file: join(dir, AUDIT_KEY_FILE) });
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const again = loadOrCreateAuditKeyFile(dir);
    expect(again).toEqual({ ...first, created: false });
    expect(loadOrCreateAuditKeyFile(fresh()).secret).not.toBe(first.secret);
  });

  it("refuses a damaged key file rather than silently replacing it", () => {
    const dir = fresh();
    writeFileSync(join(dir, AUDIT_KEY_FILE), "short\n");
    expect(() => loadOrCreateAuditKeyFile(dir)).toThrow(/does not hold an audit key/);
  });
});

describe("HmacAuditKeyring", () => {
  const a = "a".repeat(32);
  const b = "b".repeat(32);

  it("is HMAC-SHA-256 under ids derived from the keys, and keeps earlier keys for verifying", () => {
    const ring = new HmacAuditKeyring(b, [a]);
    expect(ring.keyId).toBe(auditKeyIdOf(b));
    expect(ring.keyIds).toEqual([auditKeyIdOf(b), auditKeyIdOf(a)]);
    expect(auditKeyIdOf(a)).toMatch(/^ak_[0-9a-f]{16}$/);
    expect(ring.mac(auditKeyIdOf(b), "m")).toBe(createHmac("sha256", b).update("m").digest("hex"));
    expect(ring.mac(auditKeyIdOf(a), "m")).toBe(createHmac("sha256", a).update("m").digest("hex"));
    expect(ring.mac(auditKeyIdOf(a), "m")).not.toBe(ring.mac(auditKeyIdOf(b), "m"));
    expect(ring.mac("ak_unknown", "m")).toBeNull();
    expect(ring.sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("refuses keys shorter than 32 characters", () => {
    expect(() => new HmacAuditKeyring("short")).toThrow(RangeError);
    expect(() => new HmacAuditKeyring(a, ["short"])).toThrow(RangeError);
  });
});
