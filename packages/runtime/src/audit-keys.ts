import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { HmacAuditKeyring, loadOrCreateAuditKeyFile } from "@svc/persistence";
import type { Config } from "./config/api.js";

export interface AuditKeys {
  readonly keyring: HmacAuditKeyring;
  /** Where the key comes from: "SVC_AUDIT_KEY", the key file's path, or "memory". */
  readonly source: string;
  /** True when this start created the key file. */
  readonly created: boolean;
}

/**
 * The audit keyring. SVC_AUDIT_KEY when set (required in server mode, which loadConfig enforces:
 * replicas must share it). Otherwise the embedded default's key file `<SVC_DATA_DIR>/audit.key`,
 * beside the database directory and not in it, made on first start; an in-memory database gets
 * a key for the life of the process.
 */
export function auditKeysOf(config: Config): AuditKeys {
  const previous = config.SVC_AUDIT_PREVIOUS_KEYS;
  if (config.SVC_AUDIT_KEY) return { keyring: new HmacAuditKeyring(config.SVC_AUDIT_KEY, previous), source: "SVC_AUDIT_KEY", created: false };
  if (config.DATABASE_URL) throw new Error("SVC_AUDIT_KEY is required with DATABASE_URL");
  if (config.SVC_DATA_DIR === "memory://") return { keyring: new HmacAuditKeyring(randomBytes(32).toString("hex"), previous), source: "memory", created: true };
  const k = loadOrCreateAuditKeyFile(resolve(config.SVC_DATA_DIR));
  return { keyring: new HmacAuditKeyring(k.secret, previous), source: k.file, created: k.created };
}
