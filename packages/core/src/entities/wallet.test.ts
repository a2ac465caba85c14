import basex from "base-x";
import { bech32, bech32m } from "bech32";
import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { looksLikeWallet, parseWallet, toEip55 } from "./wallet.js";

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const b58 = basex(B58);

const flipFirstLetter = (s: string): string => {
  const i = s.slice(2).search(/[a-f]/i) + 2;
  const c = s[i]!;
  return s.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + s.slice(i + 1);
};
const base58check = (version: number, payload: Uint8Array): string => {
  const body = Uint8Array.from([version, ...payload]);
  return b58.encode(Uint8Array.from([...body, ...sha256(sha256(body)).subarray(0, 4)]));
};
const segwit = (hrp: string, version: number, program: Uint8Array): string =>
  (version === 0 ? bech32 : bech32m).encode(hrp, [version, ...bech32.toWords(program)], 90);

const expectError = (s: string, code: string, message?: RegExp) => {
  const r = parseWallet(s);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error.code).toBe(code);
  expect(r.error.type).toBe("wallet");
  if (message) expect(r.error.message).toMatch(message);
};
const expectOk = (s: string) => {
  const r = parseWallet(s);
  if (!r.ok) throw new Error(`${s}: ${r.error.code} ${r.error.message}`);
  return r;
};

// ---------- EVM ----------

// EIP-55 spec vectors: two all-caps, two all-lower, four mixed — all are their own EIP-55 form.
const EIP55 = [
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  "0xde709f2102306220921060314715629080e2fb77",
  "0x27b1fdb04752bbc536007a920d24acb045561c26",
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];

describe("EVM", () => {
  it.each(EIP55)("EIP-55 vector %s parses, canonical lower-case, checksummed form is itself", (addr) => {
    const r = expectOk(addr);
    expect(r.value).toBe(addr.toLowerCase());
    expect(r.attributes).toMatchObject({ chain: "ethereum", family: "evm", checksummed: addr });
    const hex = addr.slice(2);
    const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
    expect(r.attributes.checksum).toBe(oneCase ? "none" : "valid");
    expect(r.attributes.checksum_valid).toBe(oneCase ? null : true);
  });

  it.each(EIP55)("toEip55(lower(%s)) reproduces the vector", (addr) => {
    expect(toEip55(addr.toLowerCase())).toBe(addr);
  });

  it.each(EIP55.map(flipFirstLetter))("one letter's case flipped (%s) still parses, checksum invalid", (addr) => {
    const r = expectOk(addr);
    expect(r.value).toBe(addr.toLowerCase());
    expect(r.attributes).toMatchObject({ checksum: "invalid", checksum_valid: false });
    expect(r.attributes.checksummed).not.toBe(addr);
  });

  it.each([
    ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "none"],
    ["0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", "none"],
    ["0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "valid"], // upper-case X prefix accepted
    ["0x0000000000000000000000000000000000000000", "none"], // digits only carry no case
  ])("%s → checksum %s", (addr, checksum) => {
    const r = expectOk(addr);
    expect(r.value).toBe(addr.toLowerCase());
    expect(r.attributes.checksum).toBe(checksum);
  });

  it.each([
    ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", /40 hex digits after 0x; this has 39/],
    ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd", /this has 41/],
    ["0x", /this has 0/],
    ["0x" + "ab".repeat(32), /this has 64.*transaction hash/],
    ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", /'g' is not a hex digit/],
    ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1Be ed", /' ' is not a hex digit/],
  ])("%s → entity.invalid", (s, message) => expectError(s, "entity.invalid", message));
});

// ---------- Bitcoin segwit ----------

describe("Bitcoin segwit", () => {
  // BIP-350's valid list (it supersedes BIP-173's for v1+); v0 entries are also BIP-173 vectors.
  it.each([
    ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "mainnet", "p2wpkh", 0],
    ["tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "testnet", "p2wsh", 0],
    ["bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y", "mainnet", "witness_unknown", 1],
    ["BC1SW50QGDZ25J", "mainnet", "witness_unknown", 16],
    ["bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "mainnet", "witness_unknown", 2],
    ["tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy", "testnet", "p2wsh", 0],
    ["tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c", "testnet", "p2tr", 1],
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "mainnet", "p2tr", 1],
    [segwit("bcrt", 0, new Uint8Array(20).fill(0x75)), "regtest", "p2wpkh", 0],
    [segwit("bc", 0, new Uint8Array(32).fill(0xab)), "mainnet", "p2wsh", 0],
    [segwit("bc", 3, new Uint8Array(40).fill(1)), "mainnet", "witness_unknown", 3],
  ] as const)("%s is valid (%s %s v%i)", (addr, network, address_type, witness_version) => {
    const r = expectOk(addr);
    expect(r.value).toBe(addr.toLowerCase());
    expect(r.attributes).toEqual({ chain: "bitcoin", network, address_type, witness_version });
  });

  it.each([
    // BIP-173's invalid list. Some now fail on the bech32/bech32m rule before their BIP-173 reason.
    ["tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty", "entity.unrecognized", /not a recognised/], // unknown hrp
    ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "entity.invalid", /checksum does not match/],
    ["BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2", "entity.invalid", /witness version 17/],
    ["bc1rw5uspcuh", "entity.invalid", /bech32m/],
    ["bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90", "entity.invalid", /bech32m/],
    ["BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", "entity.invalid", /v0 program is 20 or 32 bytes; this has 16/],
    ["tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7", "entity.invalid", /mixed/],
    ["bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du", "entity.invalid", /bech32m/],
    ["tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv", "entity.invalid", /padding/],
    ["bc1gmk9yu", "entity.invalid", /no data/],
    // BIP-173 "valid" v1+ vectors, which BIP-350 made invalid (bech32 checksum on v1+).
    ["bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx", "entity.invalid", /must use the bech32m/],
    ["BC1SW50QA3JX3S", "entity.invalid", /v16 address must use the bech32m/],
    ["bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj", "entity.invalid", /v2 address must use the bech32m/],
    // BIP-350's invalid list.
    ["tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", "entity.unrecognized", /not a recognised/],
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", "entity.invalid", /v1 address must use the bech32m/],
    ["tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf", "entity.invalid", /v2 address must use the bech32m/],
    ["BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", "entity.invalid", /v16 address must use the bech32m/],
    ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", "entity.invalid", /v0 address must use the bech32 checksum/],
    ["tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47", "entity.invalid", /v0 address must use the bech32 checksum/],
    ["bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", "entity.invalid", /'o' is not a bech32 character/],
    ["BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", "entity.invalid", /witness version 17/],
    ["bc1pw5dgrnzv", "entity.invalid", /2 to 40 bytes; this has 1/],
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", "entity.invalid", /2 to 40 bytes; this has 41/],
    ["tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", "entity.invalid", /mixed/],
    ["tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", "entity.invalid", /mixed/],
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", "entity.invalid", /padding/],
    ["tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j", "entity.invalid", /padding/],
    // Ours: a one-character typo, too long, too short for a checksum.
    ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj9", "entity.invalid", /checksum does not match/],
    ["bc1q" + "q".repeat(90), "entity.invalid", /at most 90 characters/],
    ["bc1qqq", "entity.invalid", /too short/],
  ])("%s → %s", (s, code, message) => expectError(s, code, message));

  it.each([
    // Base58 also allows these prefixes: a string that fails as segwit but is exactly 32 bytes of
    // base58 is a Solana address (mixed case here; '1' inside there).
    "Bc1" + "1".repeat(41),
    "bc1" + "1".repeat(40),
  ])("%s falls back to Solana", (s) => {
    expect(b58.decode(s).length).toBe(32);
    expect(expectOk(s).attributes).toEqual({ chain: "solana" });
  });
});

// ---------- base58: Bitcoin legacy, TRON ----------

describe("base58check", () => {
  it.each([
    ["1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "mainnet", "p2pkh"], // genesis block
    ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "mainnet", "p2pkh"],
    ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "mainnet", "p2sh"],
    ["mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", "testnet", "p2pkh"],
    ["2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", "testnet", "p2sh"],
    ["1111111111111111111114oLvT2", "mainnet", "p2pkh"], // hash160 of all zeros
  ])("%s is Bitcoin %s %s, value unchanged", (addr, network, address_type) => {
    const r = expectOk(addr);
    expect(r.value).toBe(addr);
    expect(r.attributes).toEqual({ chain: "bitcoin", network, address_type });
  });

  it.each([
    ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"], // USDT (TRC-20) contract
    ["T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"], // black-hole address
    [base58check(0x41, new Uint8Array(20).fill(0x42))],
  ])("%s is TRON", (addr) => {
    const r = expectOk(addr);
    expect(r.value).toBe(addr);
    expect(r.attributes).toEqual({ chain: "tron", address_type: "base58" });
  });

  it.each([
    ["1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb", /Bitcoin address checksum does not match — probably a typo/],
    ["1A1zP1eP5QGefi2DMPTfTL5SLmv7DjvfNa", /Bitcoin address checksum/],
    ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz", /Bitcoin address checksum/],
    ["3J98t1WpEZ73CNmQviecrnyiWrnqRhWMLy", /Bitcoin address checksum/],
    ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u", /TRON address checksum does not match/],
    ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLJ6t", /TRON address checksum/],
  ])("typo %s → entity.invalid", (s, message) => expectError(s, "entity.invalid", message));

  it.each([
    // Well-formed base58check, but another chain's version byte.
    ["LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", /version byte 0x30/], // Litecoin
    [base58check(0x1e, new Uint8Array(20).fill(9)), /version byte 0x1e/], // Dogecoin
    // Base58 of plausible length that is no address at all.
    ["4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofL" /* 31 bytes */, /not a recognised/],
  ])("%s → entity.unrecognized", (s, message) => expectError(s, "entity.unrecognized", message));
});

// ---------- Solana ----------

describe("Solana", () => {
  it.each([
    "11111111111111111111111111111111", // system program (32 zero bytes)
    "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", // SPL token program
    "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", // token-2022 program
    "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", // associated token program
    "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", // memo program
    "SysvarRent111111111111111111111111111111111",
    "So11111111111111111111111111111111111111112", // wrapped SOL mint
    "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", // USDC mint
    "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", // USDT mint
  ])("%s is Solana, value unchanged", (addr) => {
    expect(b58.decode(addr).length).toBe(32);
    const r = expectOk(addr);
    expect(r.value).toBe(addr);
    expect(r.attributes).toEqual({ chain: "solana" });
  });

  it.each([
    ["31 zero bytes", "1".repeat(31)],
    ["33 zero bytes", "1".repeat(33)],
    ["31 bytes", b58.encode(new Uint8Array(31).fill(0xff))],
    ["33 bytes", b58.encode(new Uint8Array(33).fill(0x01))],
    ["33 bytes with a leading zero", b58.encode(Uint8Array.from([0, ...new Uint8Array(32).fill(7)]))],
    ["45 characters", "1" + "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"],
    ["non-base58 0/O/I/l", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0"],
  ])("%s → entity.unrecognized", (_, s) => expectError(s, "entity.unrecognized"));
});

// ---------- everything else ----------

describe("unrecognized", () => {
  it.each(["", "hello", "example.com", "alice@example.com", "1.2.3.4", "+14155552671", "bitcoin", "Supercalifragilisticexpialidocious", "💸💸💸"])(
    "%j → entity.unrecognized",
    (s) => expectError(s, "entity.unrecognized"),
  );
});

// ---------- looksLikeWallet ----------

const VALID = [
  ...EIP55,
  "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
  "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
  "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
  "BC1SW50QGDZ25J",
  "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",
  "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
  "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
  "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
  "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
  "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
  "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn",
  "2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc",
  "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb",
  "11111111111111111111111111111111",
  "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "So11111111111111111111111111111111111111112",
];

describe("looksLikeWallet", () => {
  it("every VALID entry really parses", () => {
    for (const s of VALID) expect(parseWallet(s).ok, s).toBe(true);
  });

  it.each(VALID)("true for %s", (s) => expect(looksLikeWallet(s)).toBe(true));

  it.each([
    "hello",
    "Supercalifragilisticexpialidocious",
    "internationalization",
    "antidisestablishmentarianism",
    "ThisIsAVeryLongCamelCaseIdentifierName",
    "HyperTextMarkupDocumentsAreWrittenFast", // base58-clean camelCase, no digit
    "abcdefghijkmnopqrstuvwxyzabcdefghijk", // base58-clean, one case, no digit
    "The quick brown fox jumps over the lazy dog",
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", // 39 hex
    "bc1qqq", // too short for segwit
    "",
  ])("false for %j", (s) => expect(looksLikeWallet(s)).toBe(false));

  it("a digit-free base58 address is still recognised (mixed case is enough)", () => {
    const s = "muiCGhBsicnufXhmnzEmLTdsSCJtCHNxNz";
    expect(parseWallet(s).ok).toBe(true);
    expect(looksLikeWallet(s)).toBe(true);
  });
});

// ---------- properties ----------

describe("properties", () => {
  const b58Char = fc.constantFrom(...B58);
  const bech32Char = fc.constantFrom(..."qpzry9x8gf2tvdw0s3jn54khce6mua7lQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L1");
  const hexChar = fc.constantFrom(..."0123456789abcdefABCDEFxg");
  const arbitraryInputs = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.string({ unit: b58Char, minLength: 20, maxLength: 50 }),
    fc.tuple(fc.constantFrom("bc1", "tb1", "bcrt1", "BC1", "Tb1"), fc.string({ unit: bech32Char, maxLength: 100 })).map(([p, r]) => p + r),
    fc.string({ unit: hexChar, minLength: 36, maxLength: 44 }).map((h) => "0x" + h),
  );

  it("never throws, always returns a well-formed result", () => {
    fc.assert(
      fc.property(arbitraryInputs, (s) => {
        const r = parseWallet(s);
        looksLikeWallet(s);
        return r.ok ? typeof r.value === "string" : r.error.type === "wallet";
      }),
      { numRuns: 3000 },
    );
  });

  it("never throws on full unicode strings", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => { parseWallet(s); return true; }));
  });

  const validAddresses = fc.oneof(
    fc.tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 })).map(
      ([bytes, upper]) => "0x" + [...Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(""),
    ),
    fc.tuple(fc.constantFrom(0x00, 0x05, 0x6f, 0xc4, 0x41), fc.uint8Array({ minLength: 20, maxLength: 20 })).map(([v, p]) => base58check(v, p)),
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => b58.encode(b)).filter((s) => s.length >= 32),
    fc.tuple(fc.constantFrom("bc", "tb", "bcrt"), fc.integer({ min: 0, max: 16 }), fc.uint8Array({ minLength: 2, maxLength: 40 }), fc.boolean())
      .filter(([, v, p]) => v !== 0 || p.length === 20 || p.length === 32)
      .map(([hrp, v, p, upper]) => (upper ? segwit(hrp, v, p).toUpperCase() : segwit(hrp, v, p))),
  );

  it("generated valid addresses parse, and parsing the canonical value is idempotent", () => {
    fc.assert(
      fc.property(validAddresses, (s) => {
        const first = parseWallet(s);
        if (!first.ok) return false;
        const again = parseWallet(first.value);
        if (!again.ok || again.value !== first.value) return false;
        // Canonicalising only ever loses the EIP-55 casing, so the rest must match.
        const { checksum, checksum_valid } = again.attributes;
        expect(again.attributes).toEqual({ ...first.attributes, checksum, checksum_valid });
        // looksLikeWallet demands a digit in base58 (see the known-miss test above).
        return looksLikeWallet(s) || !/\d/.test(s);
      }),
      { numRuns: 2000 },
    );
  });

  it("idempotent on whatever random input happens to parse", () => {
    fc.assert(
      fc.property(arbitraryInputs, (s) => {
        const first = parseWallet(s);
        if (!first.ok) return true;
        const again = parseWallet(first.value);
        return again.ok && again.value === first.value;
      }),
      { numRuns: 3000 },
    );
  });

  it("any change to a real Bitcoin address is caught by its checksum", () => {
    const genesis = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa";
    fc.assert(
      fc.property(fc.integer({ min: 1, max: genesis.length - 1 }), b58Char, (i, c) => {
        fc.pre(genesis[i] !== c);
        const r = parseWallet(genesis.slice(0, i) + c + genesis.slice(i + 1));
        return !r.ok;
      }),
    );
  });
});
