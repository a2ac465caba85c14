import type { Entity } from "./types.js";

/** The host name an entity lives on (domain itself, URL host, e-mail domain), or null. */
export function hostOf(entity: Pick<Entity, "type" | "value" | "attributes">): string | null {
  if (entity.type === "domain") return entity.value;
  if (entity.type === "url") return entity.attributes.ip_literal ? null : stringAttr(entity.attributes.host);
  if (entity.type === "email") return stringAttr(entity.attributes.domain);
  return null;
}

/**
 * The host and each parent domain down to the registrable domain, by whole labels:
 * `a.b.evil.com` → [`a.b.evil.com`, `b.evil.com`, `evil.com`]. Never the public suffix.
 */
export function hostAndParents(host: string, registered: string | null): string[] {
  const out = [host];
  if (!registered || !host.endsWith(registered)) return out;
  let h = host;
  while (h.length > registered.length) {
    const dot = h.indexOf(".");
    if (dot < 0) break;
    h = h.slice(dot + 1);
    out.push(h);
  }
  return out;
}

const stringAttr = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
