import { createHash, createHmac } from "node:crypto";
import type { AuditMac } from "@svc/core";

/** An audit keyring for tests (node:crypto HMAC-SHA-256), with a fixed default key. */
export function testAuditMac(secret = "test audit key: not for production use", keyId = "ak_test"): AuditMac {
  return {
    keyId,
    mac: (id, message) => (id === keyId ? createHmac("sha256", secret).update(message, "utf8").digest("hex") : null),
    sha256: (message) => createHash("sha256").update(message, "utf8").digest("hex"),
  };
}
