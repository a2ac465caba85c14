import type { Entity } from "../../entities/types.js";
import type { Finding } from "../types.js";

const EXPLAIN: Readonly<Record<string, string>> = {
  private: "a private (RFC 1918) address, not reachable from the internet",
  loopback: "the loopback address of the machine itself",
  linkLocal: "a link-local address (also cloud metadata services)",
  carrierGradeNat: "a carrier-grade NAT address shared by many customers",
  reserved: "a reserved address that should not appear on the internet",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  unspecified: "the unspecified address",
};

/** Bogon, reserved and shared ranges: a "server" there is either internal or a disguise. */
export function networkFindings(entity: Entity): Finding[] {
  if (entity.type !== "ip_address") return [];
  const range = String(entity.attributes.range ?? "unicast");
  if (range === "unicast") return [];
  return [{
    code: "ip.non_public",
    family: "network",
    message: `${entity.value} is ${EXPLAIN[range] ?? `in the ${range} range`}`,
    evidence: { range },
    source: { name: "iana-special-registry", version: "ipaddr.js-2.5" },
  }];
}
