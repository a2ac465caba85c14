import { describe, expect, it } from "vitest";
import type { AuditRecord, NewAuditRecord } from "./audit-record.js";
import { computeRecordHash, sealRecord, verifyRecords } from "./record-hash.js";

const base = (id: string, minute: number): NewAuditRecord => ({
  id,
  account_id: "acc_1",
  created_at: `2026-11-01T12:${String(minute).padStart(2, "0")}:00Z`,
  request: { entity_value: "paypa1.com" },
  entity: { type: "domain", value: "paypa1.com", id: "domain:paypa1.com", input: "paypa1.com", attributes: {} },
  verdict: { risk_score: 92, risk_level: "critical" } as unknown as NewAuditRecord["verdict"],
  source_outcomes: [{ source: "intel", status: "ok", ms: 1 }],
  ruleset: "2026.11.1",
  data_versions: { brands: "2026.11.1" },
  actor: { key_id: null, channel: "library" },
});

function chain(n: number): AuditRecord[] {
  const out: AuditRecord[] = [];
  for (let i = 0; i < n; i++) out.push(sealRecord(base(`chk_${i}`, i), out.at(-1)?.record_hash ?? null));
  return out;
}

describe("audit hash chain", () => {
  it("hashes the record with its predecessor's hash, normalising created_at and dropping unknown fields", () => {
    const [a, b] = chain(2);
    expect(a?.created_at).toBe("2026-11-01T12:00:00.000Z");
    expect(a?.record_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b?.prev_hash).toBe(a?.record_hash);
    const withExtra = sealRecord({ ...base("chk_0", 0), extra: "not stored" } as NewAuditRecord, null);
    expect(withExtra).toEqual(a);
    expect(computeRecordHash({ ...base("chk_0", 0), created_at: "2026-11-01T12:00:00.000Z", prev_hash: "x" })).not.toBe(a?.record_hash);
  });

  it("refuses a record whose created_at is not a date", () => {
    expect(() => sealRecord({ ...base("chk_x", 0), created_at: "yesterday" }, null)).toThrow(RangeError);
  });

  it("verifies an intact chain and its head", () => {
    const c = chain(3);
    expect(verifyRecords(c, { count: 3, last_hash: c[2]?.record_hash ?? null })).toEqual({ ok: true, checked: 3 });
    expect(verifyRecords([], { count: 0, last_hash: null })).toEqual({ ok: true, checked: 0 });
  });

  it("names the first edited, removed or moved record", () => {
    const c = chain(4);
    const edited = c.map((r, i) => (i === 1 ? { ...r, ruleset: "2026.12.0" } : r));
    expect(verifyRecords(edited)).toEqual({ ok: false, checked: 2, first_bad_id: "chk_1", reason: "record_hash_mismatch" });
    expect(verifyRecords([c[0], c[2], c[3]] as AuditRecord[])).toMatchObject({ first_bad_id: "chk_2", reason: "prev_hash_mismatch" });
    expect(verifyRecords([c[0], c[2], c[1], c[3]] as AuditRecord[])).toMatchObject({ first_bad_id: "chk_2", reason: "prev_hash_mismatch" });
    expect(verifyRecords(c.slice(0, 3), { count: 4, last_hash: c[3]?.record_hash ?? null })).toEqual({ ok: false, checked: 3, reason: "head_mismatch" });
  });
});
