import type { Entity } from "../../entities/types.js";
import type { Finding } from "../types.js";

const LIBPHONENUMBER = { name: "libphonenumber-metadata", version: "1.13" };

/** Numbers that cannot exist, and number types that cost the caller or hide who answers. */
export function phoneFindings(entity: Entity): Finding[] {
  if (entity.type !== "phone") return [];
  const a = entity.attributes;
  if (a.valid === false) {
    return [{ code: "phone.invalid", family: "phone", message: "No such number can exist in its country's numbering plan", evidence: { country_calling_code: a.country_calling_code ?? null }, source: LIBPHONENUMBER }];
  }
  const type = String(a.number_type ?? "");
  const country = a.country ?? null;
  if (type === "premium_rate") return [{ code: "phone.premium_rate", family: "phone", message: "A premium-rate number: calling it costs money, a common callback scam", evidence: { number_type: type, country }, source: LIBPHONENUMBER }];
  if (type === "shared_cost") return [{ code: "phone.shared_cost", family: "phone", message: "A shared-cost number: the caller pays part of the charge", evidence: { number_type: type, country }, source: LIBPHONENUMBER }];
  if (type === "voip") return [{ code: "phone.voip", family: "phone", message: "A VoIP number, cheap to get and easy to discard", evidence: { number_type: type, country }, source: LIBPHONENUMBER }];
  return [];
}
