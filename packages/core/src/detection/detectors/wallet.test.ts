import { describe, expect, it } from "vitest";
import { defaultReference } from "../../screener.js";
import { findPoisoning, walletFindings } from "./wallet.js";
import { entity } from "./test-helpers.js";

const known = [
  { address: "0x28c6c06298d514db089934071355e5743bf21d60", label: "Binance hot wallet 14" },
  { address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", label: "USDT (TRON)" },
];
const ref = { ...defaultReference(), protectedAddresses: known };

describe("wallet checks", () => {
  it("flags a poisoned look-alike: same first and last characters, different middle", () => {
    const fake = "0x28c6a1b2c3d4e5f60718293a4b5c6d7e8f9a1d60";
    const fs = walletFindings(entity(fake), ref, []);
    const p = fs.find((f) => f.code === "wallet.address_poisoning");
    expect(p?.evidence).toMatchObject({ similar_to: known[0]!.address, shared_prefix: 4, shared_suffix: 4 });
    expect(p?.message).toContain("Binance hot wallet 14");
  });

  it.each([
    ["3 shared leading characters", "0x28c1a1b2c3d4e5f60718293a4b5c6d7e8f9a1d60"],
    ["3 shared trailing characters", "0x28c6a1b2c3d4e5f60718293a4b5c6d7e8f9a1d61"],
    ["the protected address itself", "0x28c6c06298d514db089934071355e5743bf21d60"],
    ["an unrelated address", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"],
  ])("does not flag %s", (_name, address) => {
    expect(walletFindings(entity(address), ref, []).map((f) => f.code)).not.toContain("wallet.address_poisoning");
  });

  it("compares recently seen addresses too, on the same chain only", () => {
    const recent = [{ address: "0x1111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2222", label: "seen in this chat" }];
    expect(walletFindings(entity("0x1111bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2222"), defaultReference(), recent)[0]?.code).toBe("wallet.address_poisoning");
    expect(findPoisoning("TR7NHabcdefghijkmnopqrstuvwxyzLj6t", known)?.label).toBe("USDT (TRON)");
  });

  it("flags a wrong EIP-55 checksum and names the correct form", () => {
    const fs = walletFindings(entity("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"), defaultReference(), []);
    expect(fs[0]).toMatchObject({ code: "wallet.invalid_checksum", evidence: { expected: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" } });
    expect(walletFindings(entity("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"), defaultReference(), [])).toEqual([]);
  });
});
