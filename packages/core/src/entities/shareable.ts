import type { Entity } from "./types.js";

/**
 * The form of an entity that may enter shared evidence (the graph every account's verdicts read):
 * a URL without its user-info, query string and fragment, an e-mail address as its domain
 * (never the local part, which names a person). Everything else is shared as it is. `null` when
 * nothing of the entity can be shared (a URL with neither host nor IP address).
 */
export function shareableEntityId(entity: Pick<Entity, "type" | "id" | "attributes">): string | null {
  const a = entity.attributes;
  if (entity.type === "email") return typeof a.domain === "string" && a.domain.length > 0 ? `domain:${a.domain}` : null;
  if (entity.type !== "url") return entity.id;
  const host = typeof a.ip_literal === "string" ? a.ip_literal : typeof a.host === "string" ? a.host : null;
  if (!host || typeof a.scheme !== "string") return null;
  const port = typeof a.port === "number" ? `:${a.port}` : "";
  const path = typeof a.path === "string" && a.path.length > 0 ? a.path : "/";
  return `url:${a.scheme}://${host.includes(":") ? `[${host}]` : host}${port}${path}`;
}
