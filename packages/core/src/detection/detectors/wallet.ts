import type { Entity } from "../../entities/types.js";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";

const SHARED = 4;

/** The part of an address after its fixed prefix (`0x`, `bc1q`, `T` …), where poisoning imitates. */
function body(address: string): string {
  const a = address.startsWith("0x") ? address.slice(2).toLowerCase() : address;
  const m = /^(?:bc1|tb1|bcrt1)[qp]?/i.exec(a);
  return m ? a.slice(m[0].length).toLowerCase() : a;
}

/**
 * Address poisoning: a fresh address whose first and last characters match one the victim knows,
 * planted in their history so they copy the wrong one. Matches need ≥ 4 shared leading and ≥ 4
 * shared trailing characters (after fixed prefixes) and a different middle.
 */
export function findPoisoning(address: string, known: readonly { address: string; label: string }[]): { address: string; label: string; prefix: number; suffix: number } | null {
  const b = body(address);
  if (b.length < SHARED * 2 + 2) return null;
  let best: { address: string; label: string; prefix: number; suffix: number } | null = null;
  for (const k of known) {
    const kb = body(k.address);
    if (kb === b || kb.length !== b.length) continue;
    let p = 0;
    while (p < b.length && b[p] === kb[p]) p++;
    let s = 0;
    while (s < b.length - p && b[b.length - 1 - s] === kb[kb.length - 1 - s]) s++;
    if (p >= SHARED && s >= SHARED && (!best || p + s > best.prefix + best.suffix)) best = { address: k.address, label: k.label, prefix: p, suffix: s };
  }
  return best;
}

export function walletFindings(entity: Entity, ref: ReferenceData, recent: readonly { address: string; label: string }[]): Finding[] {
  if (entity.type !== "wallet") return [];
  const out: Finding[] = [];
  const a = entity.attributes;
  if (a.checksum_valid === false) {
    out.push({
      code: "wallet.invalid_checksum",
      family: "wallet",
      message: `The mixed-case checksum is wrong (correct form ${a.checksummed}): a typo or a hand-edited address`,
      evidence: { expected: a.checksummed ?? null, given: entity.input.trim() },
      source: { name: "eip-55", version: "1" },
    });
  }
  const chain = typeof a.chain === "string" ? a.chain : "";
  const candidates = [...ref.protectedAddresses, ...recent].filter((k) => sameChain(k.address, chain));
  const hit = findPoisoning(entity.value, candidates);
  if (hit) {
    out.push({
      code: "wallet.address_poisoning",
      family: "wallet",
      message: `Imitates ${hit.label} (${hit.address}): same first ${hit.prefix} and last ${hit.suffix} characters, different middle — a classic address-poisoning look-alike`,
      evidence: { similar_to: hit.address, label: hit.label, shared_prefix: hit.prefix, shared_suffix: hit.suffix },
      source: source(ref, "protected-addresses"),
    });
  }
  return out;
}

function sameChain(address: string, chain: string): boolean {
  if (chain === "ethereum") return address.startsWith("0x");
  if (chain === "tron") return address.startsWith("T");
  if (chain === "bitcoin") return /^(?:[123mn]|bc1|tb1)/i.test(address);
  return !address.startsWith("0x");
}
