import { describe, expect, it } from "vitest";
import { parseEntity } from "./parse-entity.js";
import { sameAccountAddresses, ss58Encode } from "./wallet.js";

// The well-known development account "Alice" (sr25519 //Alice) on three SS58 networks.
const ALICE = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const ALICE_GENERIC = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const ALICE_POLKADOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const ALICE_KUSAMA = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F";

describe("Substrate SS58 addresses", () => {
  it.each([
    [ALICE_POLKADOT, "polkadot", 0],
    [ALICE_KUSAMA, "kusama", 2],
    [ALICE_GENERIC, "substrate", 42],
  ])("%s is a %s wallet (prefix %d) with the account id", (address, chain, prefix) => {
    const r = parseEntity(address);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.entity).toMatchObject({ type: "wallet", value: address, attributes: { chain, family: "substrate", ss58_prefix: prefix, account_id: ALICE } });
  });

  it("reads a two-byte network prefix", () => {
    const r = parseEntity("yGHU8YKprxHbHdEv7oUK4rzMZXtsdhcXVG2CAMyC9WhzhjH2k", { type: "wallet" });
    expect(r.ok && r.entity.attributes).toMatchObject({ chain: "substrate", ss58_prefix: 255 });
  });

  it("is recognised inside text", () => {
    const r = parseEntity(` ${ALICE_POLKADOT}\n`);
    expect(r.ok && r.entity.type).toBe("wallet");
  });

  it("a typo fails the blake2b checksum: entity.invalid, not unrecognized", () => {
    for (const typo of [ALICE_GENERIC.slice(0, -1) + "Z", ALICE_POLKADOT.replace("wmo4", "wmo5"), ALICE_KUSAMA.slice(0, 10) + "b" + ALICE_KUSAMA.slice(11)]) {
      const r = parseEntity(typo);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.error.code).toBe("entity.invalid");
      expect(r.error.message).toMatch(/Substrate \(SS58\).*checksum/);
    }
  });

  it("leaves other lengths to the other chains and unknown shapes unrecognized", () => {
    // 32 base58 bytes is still Solana, not SS58.
    expect(parseEntity("So11111111111111111111111111111111111111112").ok).toBe(true);
  });

  it("an address cut short says so, typed or not (one character too many reads as a 33-byte key and fails its checksum)", () => {
    for (const cut of [ALICE_GENERIC.slice(0, 46), ALICE_GENERIC.slice(0, 45), ALICE_KUSAMA.slice(1), ALICE_POLKADOT.slice(0, 45)]) {
      for (const r of [parseEntity(cut), parseEntity(cut, { type: "wallet" })]) {
        expect(r.ok, cut).toBe(false);
        if (r.ok) continue;
        expect(r.error.code, cut).toBe("entity.invalid");
        expect(r.error.message, cut).toBe(`This looks like a Substrate (SS58) address, but ${cut.length} characters hold no whole account — probably a character was lost or added in copying.`);
      }
    }
  });

  it("encodes an account on any network, the inverse of parsing", () => {
    expect(ss58Encode(ALICE, 0)).toBe(ALICE_POLKADOT);
    expect(ss58Encode(ALICE, 2)).toBe(ALICE_KUSAMA);
    expect(ss58Encode(ALICE, 42)).toBe(ALICE_GENERIC);
    const twoByte = parseEntity("yGHU8YKprxHbHdEv7oUK4rzMZXtsdhcXVG2CAMyC9WhzhjH2k");
    if (!twoByte.ok) throw new Error("unreachable");
    expect(ss58Encode(String(twoByte.entity.attributes.account_id), 255)).toBe("yGHU8YKprxHbHdEv7oUK4rzMZXtsdhcXVG2CAMyC9WhzhjH2k");
    for (const prefix of [7, 63, 64, 1284, 16_383]) {
      const a = ss58Encode(ALICE, prefix) as string;
      const r = parseEntity(a, { type: "wallet" });
      expect(r.ok && r.entity.attributes, `prefix ${prefix}`).toMatchObject({ ss58_prefix: prefix, account_id: ALICE });
    }
    expect(ss58Encode("0x1234", 0)).toBeNull();
    expect(ss58Encode(ALICE, 46)).toBeNull();
    expect(ss58Encode(ALICE, 16_384)).toBeNull();
  });

  it("names the same account on Polkadot, Kusama and generic Substrate", () => {
    const r = parseEntity(ALICE_KUSAMA);
    if (!r.ok) throw new Error("unreachable");
    expect(sameAccountAddresses(r.entity.attributes)).toEqual([ALICE_POLKADOT, ALICE_KUSAMA, ALICE_GENERIC]);
    const eth = parseEntity("0x7F367cC41522cE07553e823bf3be79A889DEbe1B");
    expect(eth.ok && sameAccountAddresses(eth.entity.attributes)).toEqual([]);
  });
});
