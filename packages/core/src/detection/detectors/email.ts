import type { Entity } from "../../entities/types.js";
import type { Brand } from "@svc/intel";
import { source, type ReferenceData } from "../reference.js";
import type { Finding } from "../types.js";

/** Disposable and free-mail providers, and brand names on accounts anyone can register. */
export function emailFindings(entity: Entity, ref: ReferenceData): Finding[] {
  if (entity.type !== "email") return [];
  const domain = String(entity.attributes.domain ?? "");
  const registered = String(entity.attributes.registered_domain ?? domain);
  const out: Finding[] = [];
  const disposable = ref.disposableEmail.has(domain) || ref.disposableEmail.has(registered);
  if (disposable) {
    out.push({ code: "email.disposable", family: "email", message: `${registered} hands out throw-away mailboxes: nobody stands behind this address`, evidence: { provider: registered }, source: source(ref, "disposable-email") });
    return out;
  }
  const free = ref.freeEmail.has(domain) || ref.freeEmail.has(registered);
  const local = String(entity.attributes.local_part ?? "");
  // A brand's own domain may be on the free-mail list (facebook.com); that is not impersonation.
  const brand = free ? brandInLocalPart(local, ref) : undefined;
  const ownDomain = brand?.officialDomains.includes(registered) ?? false;
  if (free) {
    out.push({ code: "email.free_mail", family: "email", message: `${registered} is a free mail provider`, evidence: { provider: registered }, source: source(ref, "free-email") });
    if (brand && !ownDomain) {
      out.push({
        code: "email.brand_on_free_mail",
        family: "email",
        message: `Uses the name ${brand.name} on a free ${registered} mailbox; ${brand.name} writes from ${brand.officialDomains[0] ?? "its own domain"}`,
        evidence: { brand: brand.id, official_domains: [...brand.officialDomains], provider: registered },
        source: source(ref, "brands"),
      });
    }
  }
  return out;
}

/**
 * The brand named in a mailbox's local part: one of its separated parts (`binance.support`), or
 * failing that the longest brand token of 5+ letters that starts it (`binancesupport`). Looks up
 * the local part's prefixes, never scans the brand list.
 */
function brandInLocalPart(local: string, ref: ReferenceData): Brand | undefined {
  for (const p of local.split(/[._+-]+/)) {
    const b = p.length > 0 ? ref.brandTokens.get(p) : undefined;
    if (b) return b;
  }
  const joined = local.replace(/[._+-]/g, "");
  for (let end = joined.length; end >= 5; end--) {
    const b = ref.brandTokens.get(joined.slice(0, end));
    if (b) return b;
  }
  return undefined;
}
