import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import type { AuditMac } from "../ports/audit-mac.js";
import type { AuditRecord, NewAuditRecord } from "./audit-record.js";
import { canonicalJson } from "./canonical-json.js";
import { auditColumnsOf, chainVerifier, sealChainHead, sealRecord, verifyRecords, type ChainHead } from "./record-hash.js";

/** A keyring in the test (core has no node:crypto): key ids map to secrets. */
function macOf(keys: Record<string, string>, current: string): AuditMac {
  return {
    keyId: current,
    mac: (id, message) => (keys[id] === undefined ? null : bytesToHex(hmac(sha256, utf8ToBytes(keys[id]), utf8ToBytes(message)))),
    sha256: (message) => bytesToHex(sha256(utf8ToBytes(message))),
  };
}
const mac = macOf({ k1: "first secret key, thirty-two chars+" }, "k1");

const base = (id: string, minute: number): NewAuditRecord => ({
  id,
  account_id: "acc_1",
  created_at: `2026-11-01T12:${String(minute).padStart(2, "0")}:00Z`,
  request: { entity_value: "paypa1.com" },
  entity: { type: "domain", value: "paypa1.com", id: "domain:paypa1.com", input: "paypa1.com", attributes: {} },
  verdict: { risk_score: 92, risk_level: "critical", confidence: "high" } as unknown as NewAuditRecord["verdict"],
  source_outcomes: [{ source: "intel", status: "ok", ms: 1 }],
  ruleset: "2026.11.1",
  data_versions: { brands: "2026.11.1" },
  actor: { key_id: null, channel: "library" },
});

function chain(n: number, m: AuditMac = mac): AuditRecord[] {
  const out: AuditRecord[] = [];
  for (let i = 0; i < n; i++) out.push(sealRecord(base(`chk_${i}`, i), out.at(-1)?.record_hash ?? null, m));
  return out;
}
const headOf = (c: readonly AuditRecord[], m: AuditMac = mac): ChainHead => sealChainHead({ account_id: "acc_1", count: c.length, last_hash: c.at(-1)?.record_hash ?? null }, m);

/** A record of the first scheme (plain SHA-256 over the canonical fields), as stores hold them from before keyed hashing. */
function legacy(r: NewAuditRecord, prev: string | null): AuditRecord {
  const fields = { ...r, created_at: new Date(r.created_at).toISOString(), actor: { key_id: r.actor.key_id, channel: r.actor.channel }, prev_hash: prev };
  return { ...fields, record_hash: bytesToHex(sha256(utf8ToBytes(canonicalJson(fields)))), hash_version: 1, hash_key_id: null };
}

describe("audit hash chain", () => {
  it("seals with the current key, names it, and chains to the predecessor's hash", () => {
    const [a, b] = chain(2);
    expect(a).toMatchObject({ created_at: "2026-11-01T12:00:00.000Z", hash_version: 2, hash_key_id: "k1", prev_hash: null });
    expect(a?.record_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b?.prev_hash).toBe(a?.record_hash);
    const withExtra = sealRecord({ ...base("chk_0", 0), extra: "not stored" } as NewAuditRecord, null, mac);
    expect(withExtra).toEqual(a);
  });

  it("is keyed: another key gives another hash, and a plain SHA-256 of the record is not it", () => {
    const [a] = chain(1);
    const [other] = chain(1, macOf({ k1: "another secret key, thirty-two ch" }, "k1"));
    expect(other?.record_hash).not.toBe(a?.record_hash);
    expect(legacy(base("chk_0", 0), null).record_hash).not.toBe(a?.record_hash);
  });

  it("refuses a record whose created_at is not a date", () => {
    expect(() => sealRecord({ ...base("chk_x", 0), created_at: "yesterday" }, null, mac)).toThrow(RangeError);
  });

  it("verifies an intact chain and its head", () => {
    const c = chain(3);
    expect(verifyRecords(c, mac, headOf(c))).toEqual({ ok: true, checked: 3, legacy: 0 });
    expect(verifyRecords([], mac, headOf([]))).toEqual({ ok: true, checked: 0, legacy: 0 });
  });

  it("names the first edited, removed or moved record", () => {
    const c = chain(4);
    const edited = c.map((r, i) => (i === 1 ? { ...r, ruleset: "2026.12.0" } : r));
    expect(verifyRecords(edited, mac)).toMatchObject({ ok: false, checked: 2, first_bad: { id: "chk_1", reason: "hash_mismatch" } });
    expect(verifyRecords([c[0], c[2], c[3]] as AuditRecord[], mac)).toMatchObject({ first_bad: { id: "chk_2", reason: "chain_broken" } });
    expect(verifyRecords([c[0], c[2], c[1], c[3]] as AuditRecord[], mac)).toMatchObject({ first_bad: { id: "chk_2", reason: "chain_broken" } });
    expect(verifyRecords(c.slice(0, 3), mac, headOf(c))).toMatchObject({ ok: false, checked: 3, first_bad: { id: null, reason: "missing" } });
  });

  it("covers the listed columns: a column edited alone is caught", () => {
    const c = chain(2);
    const v = chainVerifier(mac);
    expect(v.push(c[0] as AuditRecord, { ...auditColumnsOf(c[0] as AuditRecord), risk_score: 3 })).toBe(false);
    expect(v.result()).toMatchObject({ first_bad: { id: "chk_0", reason: "hash_mismatch" } });
  });

  it("catches a head rewritten to hide removed records, and a head without its keyed hash", () => {
    const c = chain(3);
    const forged: ChainHead = { ...headOf(c), count: 2, last_hash: c[1]?.record_hash ?? null };
    expect(verifyRecords(c.slice(0, 2), mac, forged)).toMatchObject({ ok: false, first_bad: { id: null, reason: "hash_mismatch" } });
    expect(verifyRecords(c, mac, { ...headOf(c), mac: null, mac_key_id: null })).toMatchObject({ ok: false, first_bad: { reason: "hash_mismatch" } });
  });

  it("verifies records of an earlier key while it is kept, and says when a key is missing", () => {
    const old = macOf({ k0: "old secret key, thirty-two chars++" }, "k0");
    const rotated = macOf({ k0: "old secret key, thirty-two chars++", k1: "first secret key, thirty-two chars+" }, "k1");
    const first = chain(2, old);
    const next = sealRecord(base("chk_2", 2), first[1]?.record_hash ?? null, rotated);
    const all = [...first, next];
    expect(verifyRecords(all, rotated, headOf(all, rotated))).toEqual({ ok: true, checked: 3, legacy: 0 });
    expect(verifyRecords(all, mac)).toMatchObject({ ok: false, first_bad: { id: "chk_0", reason: "unknown_key" } });
  });

  it("keeps unkeyed (version 1) records verifiable, counted as legacy, but never after keyed ones", () => {
    const l0 = legacy(base("chk_0", 0), null);
    const l1 = legacy(base("chk_1", 1), l0.record_hash);
    const k2 = sealRecord(base("chk_2", 2), l1.record_hash, mac);
    expect(verifyRecords([l0, l1, k2], mac, headOf([l0, l1, k2]))).toEqual({ ok: true, checked: 3, legacy: 2 });
    expect(verifyRecords([{ ...l0, ruleset: "x" }, l1], mac)).toMatchObject({ first_bad: { id: "chk_0", reason: "hash_mismatch" } });
    // Rewriting a keyed record as an unkeyed one (plain SHA-256, no key needed) is refused.
    const downgraded = legacy({ ...base("chk_3", 3), ruleset: "edited" }, k2.record_hash);
    expect(verifyRecords([l0, l1, k2, downgraded], mac)).toMatchObject({ first_bad: { id: "chk_3", reason: "hash_mismatch" } });
    // A chain rewritten in full under the unkeyed scheme: its head cannot be sealed without the key.
    expect(verifyRecords([l0, l1], mac, { account_id: "acc_1", count: 2, last_hash: l1.record_hash, mac: null, mac_key_id: null }))
      .toMatchObject({ ok: false, first_bad: { id: null, reason: "hash_mismatch" } });
    // A legacy record whose listed column was edited alone.
    const v = chainVerifier(mac);
    v.push(l0, { ...auditColumnsOf(l0), entity_value: "paypal.com" });
    expect(v.result()).toMatchObject({ first_bad: { id: "chk_0", reason: "hash_mismatch" } });
  });
});
