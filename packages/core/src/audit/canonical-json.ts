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

function write(value: unknown, out: string[], path: string): void {
  if (value === null) {
    out.push("null");
    return;
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
