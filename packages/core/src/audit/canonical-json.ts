/**
 * Deterministic JSON: object keys sorted by code unit, no whitespace, `undefined` members
 * dropped (as JSON.stringify does). The same value always gives the same text, whatever the
 * key order a database (jsonb) or a parser hands back, so a hash over it is stable.
 * Numbers use ECMAScript's shortest round-trip form, as RFC 8785 (JCS) does.
 */
export function canonicalJson(value: unknown): string {
  try {
    return write(value);
  } catch (e) {
    if (e instanceof Unwritable) throw new TypeError(`canonicalJson: $${e.path} ${e.reason}`);
    throw e;
  }
}

/** A value JSON cannot carry; `path` is filled in on the way out (only then: no path is built while writing). */
class Unwritable {
  path = "";
  constructor(readonly reason: string) {}
}

/** Texts of objects serialised once (`canonicalJsonOnce`), by identity; weak, so they go with their objects. */
const once = new WeakMap<object, string>();

/**
 * `canonicalJson(value)`, computed once per object: later calls, and any larger value that
 * contains the object (an audit record's MAC input), reuse the text. For immutable values only
 * (a verdict): a change made to the object afterwards would not show in the text. This is how a
 * verdict is serialised once for the MAC input, the stored row and the response body.
 */
export function canonicalJsonOnce(value: object): string {
  let text = once.get(value);
  if (text === undefined) {
    text = canonicalJson(value);
    once.set(value, text);
  }
  return text;
}

/** The text `canonicalJsonOnce` made for this object, if it made one. */
export function serialisedOnce(value: unknown): string | undefined {
  return value !== null && typeof value === "object" ? once.get(value) : undefined;
}

function write(value: unknown): string {
  switch (typeof value) {
    case "string":
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case "number":
      // For a finite number JSON's text is ECMAScript's shortest round-trip form (String(n)).
      if (!Number.isFinite(value)) throw new Unwritable("is not a finite number");
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      return once.get(value) ?? writeObject(value);
    default:
      throw new Unwritable(`has unsupported type ${typeof value}`);
  }
}

/**
 * What JSON.stringify would escape in a string: `"`, `\\`, control characters (a few more here than
 * it escapes: U+007F–U+009F, which only send the string the long way) and lone surrogates (a pair
 * is one code point with the `u` flag, left as it is, as JSON.stringify leaves it). Without them,
 * the JSON text is the string in quotes.
 */
const NEEDS_ESCAPE = /["\\\p{Cc}\p{Cs}]/u;
/** Object keys as JSON text with their colon, made once per key (bounded: keys of request bodies are anyone's). */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 10_000;

function writeObject(value: object): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  let out: string;
  let at = "";
  try {
    if (Array.isArray(value)) {
      out = "[";
      for (let i = 0; i < value.length; i++) {
        // Holes are skipped, undefined items written as null (as this function always has).
        if (!(i in value)) continue;
        at = `[${i}]`;
        const v: unknown = value[i];
        out += i > 0 ? `,${write(v === undefined ? null : v)}` : write(v === undefined ? null : v);
      }
      return `${out}]`;
    }
    // Keys sorted by UTF-16 code unit: the default sort order of strings.
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    out = "{";
    for (const k of keys) {
      const v = record[k];
      if (v === undefined) continue;
      at = `.${k}`;
      let key = quotedKeys.get(k);
      if (key === undefined) {
        key = `${JSON.stringify(k)}:`;
        if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(k, key);
      }
      out += `${out.length > 1 ? "," : ""}${key}${write(v)}`;
    }
    return `${out}}`;
  } catch (e) {
    if (e instanceof Unwritable) e.path = at + e.path;
    throw e;
  }
}
