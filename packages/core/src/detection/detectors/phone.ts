import type { Entity } from "../../entities/types.js";
import type { Finding } from "../types.js";

const LIBPHONENUMBER = { name: "libphonenumber-metadata", version: "1.13" };

/**
 * Number types read from libphonenumber's full ("max") metadata: the number plan says what kind of
 * line a range is. It has no carrier data (that needs an outside service, see docs/providers.md).
 */

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
  if (type === "personal_number") return [{ code: "phone.personal_number", family: "phone", message: "A personal number (such as UK 070): it forwards anywhere in the world and costs the caller more, a common disguise", evidence: { number_type: type, country }, source: LIBPHONENUMBER }];
  if (type === "toll_free") return [{ code: "phone.toll_free", family: "phone", message: "A toll-free number: free to call; genuine support lines use them, and so do fake ones", evidence: { number_type: type, country }, source: LIBPHONENUMBER }];
  if (type === "voip") return [{ code: "phone.voip", family: "phone", message: "A VoIP number, cheap to get and easy to discard", evidence: { number_type: type, country }, source: LIBPHONENUMBER }];
  return [];
}
