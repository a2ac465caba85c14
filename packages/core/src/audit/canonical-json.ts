/**
 * Deterministic JSON: object keys sorted by code unit, no whitespace, `undefined` members
 * dropped (as JSON.stringify does). The same value always gives the same text, whatever the
 * key order a database (jsonb) or a parser hands back, so a hash over it is stable.
 * Numbers use ECMAScript's shortest round-trip form, as RFC 8785 (JCS) does.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out, "$");
  return out.join("");
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

function write(value: unknown, out: string[], path: string): void {
  if (value === null) {
    out.push("null");
    return;
  }
  if (typeof value === "object") {
    const text = once.get(value);
    if (text !== undefined) {
      out.push(text);
      return;
    }
  }
  switch (typeof value) {
    case "string":
      out.push(JSON.stringify(value));
      return;
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is not a finite number`);
      out.push(JSON.stringify(value));
      return;
    case "object":
      break;
    default:
      throw new TypeError(`canonicalJson: ${path} has unsupported type ${typeof value}`);
  }
  if (value instanceof Date) {
    out.push(JSON.stringify(value.toISOString()));
    return;
  }
  if (Array.isArray(value)) {
    out.push("[");
    value.forEach((v, i) => {
      if (i > 0) out.push(",");
      // JSON.stringify writes holes and undefined inside arrays as null.
      write(v === undefined ? null : v, out, `${path}[${i}]`);
    });
    out.push("]");
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  out.push("{");
  entries.forEach(([k, v], i) => {
    if (i > 0) out.push(",");
    out.push(JSON.stringify(k), ":");
    write(v, out, `${path}.${k}`);
  });
  out.push("}");
}
