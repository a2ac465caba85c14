/**
 * Cryptocurrency wallet addresses: Ethereum/EVM, Bitcoin (base58check and segwit), TRON, Solana,
 * Substrate SS58 (Polkadot, Kusama, generic Substrate and other SS58 networks).
 *
 * Ambiguity rule — the first that applies wins:
 *  1. `0x` / `0X` prefix → EVM. Broken hex or wrong length is `entity.invalid`, never another chain.
 *  2. `bc1` / `tb1` / `bcrt1` prefix (any case) → Bitcoin segwit; a bad checksum or program is
 *     `entity.invalid`. One exception: those prefixes are also legal base58, so a string that fails
 *     as segwit but is a *valid* base58 address (checksummed BTC/TRON, or exactly 32 bytes = Solana)
 *     is that address — roughly 1 Solana address in 24,000 starts with some casing of bc1/tb1.
 *  3. Otherwise base58: a 25-byte payload with a known version byte (BTC 0x00/0x05/0x6f/0xc4,
 *     TRON 0x41) is that chain, and a failed checksum is `entity.invalid` (a typo, not Solana —
 *     a 25-byte payload can never be a 32-byte Solana key). Else exactly 32 bytes → Solana, which
 *     has no checksum, so any 32-byte string is accepted.
 *  4. 45–50 base58 characters → Substrate SS58: a 1- or 2-byte network prefix, a 32-byte account
 *     (or 33-byte key) and a 2-byte blake2b-512 "SS58PRE" checksum. A bad checksum or a reserved
 *     prefix is `entity.invalid` (no other supported address is that long).
 *  5. Anything else → `entity.unrecognized`.
 *
 * Pure and total: no I/O, and no input makes it throw (library calls use their non-throwing forms).
 */
import { blake2b } from "@noble/hashes/blake2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import basex from "base-x";
import { bech32, bech32m } from "bech32";
import { entityError, parsed, type TypedParse } from "./types.js";

const B58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const b58 = basex(B58_ALPHABET);
const B58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BECH32_CHARS = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]*$/;

const invalid = (message: string): TypedParse => entityError("entity.invalid", message, "wallet");

// ---------- EVM ----------

/** EIP-55 mixed-case checksum of an address (`0x` optional, any case in, `0x` + checksummed out). */
export function toEip55(addressLower: string): string {
  const hex = addressLower.replace(/^0x/i, "").toLowerCase();
  const hash = keccak_256(utf8ToBytes(hex));
  let out = "0x";
  for (let i = 0; i < hex.length; i++) {
    const c = hex[i]!;
    // Nibble i of the hash: high nibble of byte i/2 for even i, low nibble for odd i.
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

function parseEvm(s: string): TypedParse {
  const hex = s.slice(2);
  const bad = /[^0-9a-f]/i.exec(hex);
  if (bad) return invalid(`This looks like an Ethereum address, but an address is hex after 0x; '${bad[0]}' is not a hex digit.`);
  if (hex.length !== 40) {
    const hint = hex.length === 64 ? " (64 hex digits is a transaction hash or key, not an address)" : "";
    return invalid(`This looks like an Ethereum address, but an address has 40 hex digits after 0x; this has ${hex.length}${hint}.`);
  }
  const lower = "0x" + hex.toLowerCase();
  const checksummed = toEip55(lower);
  // All one case carries no checksum (digits have no case, so all-digit is "none" too).
  const none = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  const valid = none ? null : "0x" + hex === checksummed;
  return parsed(lower, {
    chain: "ethereum",
    family: "evm",
    checksummed,
    checksum: none ? "none" : valid ? "valid" : "invalid",
    checksum_valid: valid,
  });
}

// ---------- Bitcoin segwit (BIP-173 / BIP-350) ----------

const SEGWIT_HRPS: Record<string, string> = { bc: "mainnet", tb: "testnet", bcrt: "regtest" };
const HRP_ORDER = ["bcrt", "bc", "tb"] as const;

/** The segwit human-readable part `lower` starts with (followed by its "1" separator), if any. */
function segwitHrp(lower: string): string | undefined {
  for (const h of HRP_ORDER) if (lower.startsWith(h) && lower.charCodeAt(h.length) === 0x31) return h;
  return undefined;
}

function parseSegwit(s: string, hrp: string): TypedParse {
  if (s.length > 90) return invalid(`a Bitcoin segwit address is at most 90 characters; this has ${s.length}`);
  const lower = s.toLowerCase();
  if (s !== lower && s !== s.toUpperCase()) return invalid("a Bitcoin segwit address must be all lower or all upper case, not mixed");
  const data = lower.slice(hrp.length + 1);
  const bad = /[^qpzry9x8gf2tvdw0s3jn54khce6mua7l]/.exec(data);
  if (bad) return invalid(`'${bad[0]}' is not a bech32 character, so this is not a valid Bitcoin segwit address`);
  if (data.length < 6) return invalid("a Bitcoin segwit address is too short to hold its 6-character checksum");
  // No string is valid under both constants, so at most one of these succeeds.
  const asBech32 = bech32.decodeUnsafe(lower, 90);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower, 90);
  const dec = asBech32 ?? asBech32m;
  if (!dec || dec.prefix !== hrp) return invalid("the Bitcoin segwit checksum does not match — probably a typo");
  const [version, ...words] = dec.words;
  if (version === undefined) return invalid("a Bitcoin segwit address with no data (no witness version or program)");
  if (version > 16) return invalid(`witness version ${version} does not exist (0–16), so this is not a valid Bitcoin segwit address`);
  if (version === 0 && asBech32m) return invalid("a witness v0 address must use the bech32 checksum (BIP-173), not bech32m");
  if (version > 0 && asBech32) return invalid(`a witness v${version} address must use the bech32m checksum (BIP-350), not bech32 — probably a typo or an outdated encoder`);
  // fromWordsUnsafe rejects more than 4 bits of padding and non-zero padding.
  const program = bech32.fromWordsUnsafe(words);
  if (!program) return invalid("the Bitcoin segwit program has invalid padding");
  const n = program.length;
  if (version === 0 && n !== 20 && n !== 32) return invalid(`a witness v0 program is 20 or 32 bytes; this has ${n}`);
  if (n < 2 || n > 40) return invalid(`a witness program is 2 to 40 bytes; this has ${n}`);
  const address_type =
    version === 0 ? (n === 20 ? "p2wpkh" : "p2wsh") : version === 1 && n === 32 ? "p2tr" : "witness_unknown";
  return parsed(lower, { chain: "bitcoin", network: SEGWIT_HRPS[hrp]!, address_type, witness_version: version });
}

// ---------- base58: Bitcoin legacy, TRON, Solana ----------

const B58_VERSIONS: Record<number, { chain: string; network?: string; address_type: string }> = {
  0x00: { chain: "bitcoin", network: "mainnet", address_type: "p2pkh" },
  0x05: { chain: "bitcoin", network: "mainnet", address_type: "p2sh" },
  0x6f: { chain: "bitcoin", network: "testnet", address_type: "p2pkh" },
  0xc4: { chain: "bitcoin", network: "testnet", address_type: "p2sh" },
  0x41: { chain: "tron", address_type: "base58" },
};

/** Base58 outcome: a result, or undefined when the string is not any base58 address. */
function parseBase58(s: string): TypedParse | undefined {
  // 25..44 bounds every address below and keeps base-x's quadratic decode cheap.
  if (s.length < 25 || s.length > 44 || !B58_RE.test(s)) return undefined;
  const bytes = b58.decodeUnsafe(s);
  if (!bytes) return undefined;
  if (bytes.length === 25) {
    const version = bytes[0]!;
    const known = B58_VERSIONS[version];
    const check = sha256(sha256(bytes.subarray(0, 21)));
    const checksumOk = check.subarray(0, 4).every((b, i) => b === bytes[21 + i]);
    if (!known) {
      if (!checksumOk) return undefined;
      // Valid base58check of another chain (Litecoin 0x30, Dogecoin 0x1e ...): say so.
      const hex = version.toString(16).padStart(2, "0");
      return entityError("entity.unrecognized", `a base58check address with version byte 0x${hex}, which is not Bitcoin or TRON`, "wallet");
    }
    if (!checksumOk) {
      const name = known.chain === "tron" ? "TRON" : "Bitcoin";
      return invalid(`the ${name} address checksum does not match — probably a typo`);
    }
    return parsed(s, { ...known });
  }
  if (bytes.length === 32 && s.length >= 32) return parsed(s, { chain: "solana" });
  return undefined;
}

// ---------- Substrate SS58 ----------

/** SS58 network prefixes svc names; any other valid prefix is chain "substrate" with its number. */
const SS58_NETWORKS: Record<number, string> = { 0: "polkadot", 2: "kusama", 42: "substrate" };
const SS58_PRE = utf8ToBytes("SS58PRE");

/**
 * SS58 (https://docs.substrate.io/reference/address-formats/): base58 of prefix ‖ account ‖
 * checksum, where the checksum is the first 2 bytes of blake2b-512("SS58PRE" ‖ prefix ‖ account).
 * Only account addresses (32-byte ids, 33-byte keys) are wallets; the short account-index forms
 * are not. Undefined when the string is not SS58-shaped at all.
 */
function parseSs58(s: string): TypedParse | undefined {
  if (s.length < 45 || s.length > 50 || !B58_RE.test(s)) return undefined;
  const bytes = b58.decodeUnsafe(s);
  if (!bytes) return undefined;
  // No other address svc reads is this long: a length that holds no account is a copying slip.
  const cut = (): TypedParse => invalid(`This looks like a Substrate (SS58) address, but ${s.length} characters hold no whole account — probably a character was lost or added in copying.`);
  if (bytes.length < 35) return cut();
  const first = bytes[0]!;
  // Bit 7 set is reserved; bit 6 set means a 2-byte prefix (14-bit network number).
  if (first & 0x80) return invalid("This looks like a Substrate (SS58) address, but its first byte is a reserved prefix.");
  const prefixLength = first & 0x40 ? 2 : 1;
  const second = bytes[1]!;
  const prefix = prefixLength === 1 ? first : ((first & 0x3f) << 2) | (second >> 6) | ((second & 0x3f) << 8);
  const accountLength = bytes.length - prefixLength - 2;
  if (accountLength !== 32 && accountLength !== 33) return cut();
  if (prefixLength === 1 && (prefix === 46 || prefix === 47)) return invalid(`SS58 prefix ${prefix} is reserved, so this is not a Substrate address.`);
  const body = bytes.subarray(0, bytes.length - 2);
  const pre = new Uint8Array(SS58_PRE.length + body.length);
  pre.set(SS58_PRE);
  pre.set(body, SS58_PRE.length);
  const hash = blake2b(pre, { dkLen: 64 });
  if (hash[0] !== bytes[bytes.length - 2] || hash[1] !== bytes[bytes.length - 1]) {
    return invalid("This looks like a Substrate (SS58) address, but its checksum does not match — probably a typo.");
  }
  const account = bytes.subarray(prefixLength, prefixLength + accountLength);
  let hex = "0x";
  for (const b of account) hex += b.toString(16).padStart(2, "0");
  // base58 has one spelling per byte string, so re-encoding the decoded bytes is the canonical form.
  return parsed(b58.encode(bytes), {
    chain: SS58_NETWORKS[prefix] ?? "substrate",
    family: "substrate",
    ss58_prefix: prefix,
    // The same account on every SS58 network: the key to compare a Polkadot and a Kusama address by.
    account_id: hex,
  });
}

/** The SS58 address of a 32/33-byte account (hex, `0x` optional) on network `prefix` (0–16383); null when either is out of range. */
export function ss58Encode(accountIdHex: string, prefix: number): string | null {
  const hex = accountIdHex.replace(/^0x/i, "");
  if (!/^(?:[0-9a-f]{64}|[0-9a-f]{66})$/i.test(hex) || !Number.isInteger(prefix) || prefix < 0 || prefix > 16_383 || prefix === 46 || prefix === 47) return null;
  const head = prefix < 64 ? [prefix] : [((prefix & 0xfc) >> 2) | 0x40, (prefix >> 8) | ((prefix & 0x03) << 6)];
  const body = new Uint8Array(head.length + hex.length / 2);
  body.set(head);
  for (let i = 0; i < hex.length / 2; i++) body[head.length + i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  const pre = new Uint8Array(SS58_PRE.length + body.length);
  pre.set(SS58_PRE);
  pre.set(body, SS58_PRE.length);
  const hash = blake2b(pre, { dkLen: 64 });
  const out = new Uint8Array(body.length + 2);
  out.set(body);
  out[body.length] = hash[0]!;
  out[body.length + 1] = hash[1]!;
  return b58.encode(out);
}

/**
 * The same account's address on Polkadot, Kusama and the generic Substrate network, for a
 * wallet entity's attributes (empty unless it is an SS58 address): a list names an account in
 * one network's spelling, a request may use another's.
 */
export function sameAccountAddresses(attributes: Readonly<Record<string, unknown>>): string[] {
  if (attributes.family !== "substrate" || typeof attributes.account_id !== "string") return [];
  const out: string[] = [];
  for (const prefix of [0, 2, 42]) {
    const a = ss58Encode(attributes.account_id, prefix);
    if (a !== null) out.push(a);
  }
  return out;
}

const unrecognized = (): TypedParse =>
  entityError("entity.unrecognized", "not a recognised wallet address (Ethereum/EVM, Bitcoin, TRON, Solana or Substrate SS58)", "wallet");

export function parseWallet(s: string): TypedParse {
  try {
    if (/^0x/i.test(s)) return parseEvm(s);
    const hrp = segwitHrp(s.toLowerCase());
    if (hrp !== undefined) {
      const segwit = parseSegwit(s, hrp);
      if (segwit.ok) return segwit;
      const base58 = parseBase58(s);
      return base58?.ok ? base58 : segwit;
    }
    return parseBase58(s) ?? parseSs58(s) ?? unrecognized();
  } catch {
    // Belt and braces: nothing above should throw, but a parser must never take the request down.
    return unrecognized();
  }
}

/** Cheap shape check for auto-detection (no hashing, no decoding). */
export function looksLikeWallet(s: string): boolean {
  if (/^0x[0-9a-f]{40}$/i.test(s)) return true;
  // Segwit addresses start with "bc" or "tb" in either case: no lower-case copy of anything else.
  const c0 = s.charCodeAt(0) | 0x20;
  if (c0 === 0x62 || c0 === 0x74) {
    const lower = s.toLowerCase();
    const hrp = segwitHrp(lower);
    // Shortest real segwit address is 14 characters (hrp "bc", 2-byte program).
    if (hrp !== undefined && s.length >= 14 && s.length <= 90 && BECH32_CHARS.test(lower.slice(hrp.length + 1))) return true;
  }
  if (s.length < 25 || s.length > 50 || !B58_RE.test(s)) return false;
  // Random base58 of this length has both cases and a digit or two capitals in a row (all but
  // ~1 in 150,000 addresses), or, like Solana's 111…1 system program, only digits.
  // Words, slugs and camelCase identifiers have neither.
  const hasDigit = /\d/.test(s);
  const hasLower = /[a-z]/.test(s);
  const hasUpper = /[A-Z]/.test(s);
  return (hasLower && hasUpper && (hasDigit || /[A-Z]{2}/.test(s))) || (hasDigit && !hasLower && !hasUpper);
}
