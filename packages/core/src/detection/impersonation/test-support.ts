import { brands, confusables } from "@svc/intel";
import { parseEntity } from "../../entities/parse-entity.js";
import type { Entity } from "../../entities/types.js";
import { buildImpersonationIndex, type ImpersonationIndex } from "./build-index.js";

/** Test-only: one index per test file (building it is the slow part). */
let shared: ImpersonationIndex | null = null;
export const testIndex = (): ImpersonationIndex => (shared ??= buildImpersonationIndex(brands, confusables));

/** Parses a test input or fails the test with the parser's reason. */
export function parse(input: string): Entity {
  const r = parseEntity(input);
  if (!r.ok) throw new Error(`${input}: ${r.error.code} ${r.error.message}`);
  return r.entity;
}
