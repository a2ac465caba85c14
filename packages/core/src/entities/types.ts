/** The seven kinds of thing svc can screen. */
export const ENTITY_TYPES = [
  "domain",
  "url",
  "wallet",
  "email",
  "ip_address",
  "phone",
  "social_account",
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export type AttributeValue =
  | string
  | number
  | boolean
  | null
  | readonly AttributeValue[]
  | { readonly [key: string]: AttributeValue };
export type EntityAttributes = Record<string, AttributeValue>;

/** A parsed entity: `value` is canonical, so `id` is the same for every spelling of it. */
export interface Entity {
  readonly type: EntityType;
  readonly value: string;
  readonly id: string;
  /** What the caller gave us, untouched. */
  readonly input: string;
  readonly attributes: EntityAttributes;
}

/** Stable error codes: clients may branch on them, so never rename one. */
export const ENTITY_ERROR_CODES = [
  "entity.invalid_input", // not a string
  "entity.empty",
  "entity.too_long",
  "entity.unrecognized", // no type fits
  "entity.invalid", // the type is clear but the value is broken (bad label, bad checksum ...)
  "entity.ambiguous", // several readings (e.g. an IPv4 address written in octal)
  "entity.unsupported", // a real thing we do not screen (IPv6, javascript: URLs ...)
  "entity.type_mismatch", // an explicit type the value does not fit
  "entity.unknown_type", // an explicit type that is not one of ENTITY_TYPES
] as const;
export type EntityErrorCode = (typeof ENTITY_ERROR_CODES)[number];

export interface EntityError {
  readonly code: EntityErrorCode;
  readonly message: string;
  /** The type that was asked for or recognised, when there is one. */
  readonly type?: EntityType;
}

export type ParseResult =
  | { readonly ok: true; readonly entity: Entity }
  | { readonly ok: false; readonly error: EntityError };

/** What a per-type parser returns: the canonical value and its attributes, or an error. */
export type TypedParse =
  | { readonly ok: true; readonly value: string; readonly attributes: EntityAttributes }
  | { readonly ok: false; readonly error: EntityError };

export const entityError = (code: EntityErrorCode, message: string, type?: EntityType): { ok: false; error: EntityError } =>
  ({ ok: false, error: type === undefined ? { code, message } : { code, message, type } });

export const parsed = (value: string, attributes: EntityAttributes): TypedParse => ({ ok: true, value, attributes });
