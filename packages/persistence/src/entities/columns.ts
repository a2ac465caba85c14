import type { EntitySchemaColumnOptions } from "typeorm";

/**
 * Identifiers and keys compare byte-wise (`COLLATE "C"`): keyset pagination and tie-breaking
 * must order ids the same way on every engine and locale, and as the in-memory fakes do.
 */
export const idText = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: "text", collation: "C", ...extra });
export const text = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: "text", ...extra });
export const timestamptz = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: "timestamp with time zone", ...extra });
/** JSON kept as its text (no re-parse on insert); `jsonb` where the database queries inside it. */
export const json = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: "json", ...extra });
export const jsonb = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: "jsonb", ...extra });
export const integer = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: "integer", ...extra });
export const float = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({ type: "double precision", ...extra });
