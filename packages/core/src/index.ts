export * from "./entities/types.js";
export { parseEntity, detectType, MAX_ENTITY_INPUT, type ParseOptions } from "./entities/parse-entity.js";
export { extractEntities, type ExtractedEntity, type Extraction, type ExtractOptions } from "./entities/extract.js";
export { normalizeText, type Normalized } from "./entities/normalize.js";
