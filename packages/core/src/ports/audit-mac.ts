/**
 * The keyed hash that seals audit records. The key is a server secret the database does not
 * hold, so someone with write access to the database can edit a record but cannot compute the
 * hash that would make the edit look genuine. Implemented with node:crypto outside core.
 */
export interface AuditMac {
  /** Id of the key new records are sealed with; stored with each record (`hash_key_id`). */
  readonly keyId: string;
  /** HMAC-SHA-256 (hex) of `message` under the key `keyId`; null when that key is not known here. */
  mac(keyId: string, message: string): string | null;
  /** Plain SHA-256 (hex), for records of the first, unkeyed scheme (hash_version 1) only. */
  sha256(message: string): string;
}
