import { parseEntity } from "../../entities/parse-entity.js";
import type { Entity } from "../../entities/types.js";

/** Parses a test input or fails the test with the parser's reason. */
export function entity(input: string): Entity {
  const r = parseEntity(input);
  if (!r.ok) throw new Error(`${input}: ${r.error.code} ${r.error.message}`);
  return r.entity;
}
