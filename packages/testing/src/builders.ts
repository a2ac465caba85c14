import { parseEntity, type Entity, type EntityType } from "@svc/core";

/** The parsed entity for a test input; fails the test loudly when the input does not parse. */
export function entityOf(input: string, type?: EntityType): Entity {
  const r = parseEntity(input, type ? { type } : {});
  if (!r.ok) throw new Error(`test input ${JSON.stringify(input)} does not parse: ${r.error.code} ${r.error.message}`);
  return r.entity;
}
