import type { Entity } from "../../entities/types.js";
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
  const parts = local.split(/[._+-]+/).filter((p) => p.length > 0);
  // A brand's own domain may be on the free-mail list (facebook.com); that is not impersonation.
  const brand = parts.map((p) => ref.brandTokens.get(p)).find((b) => b !== undefined) ??
    [...ref.brandTokens].find(([t]) => t.length >= 5 && local.replace(/[._+-]/g, "").startsWith(t))?.[1];
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
