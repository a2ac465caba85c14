import { checkOptions, makeRecord, Seen, valueProblem } from "./common.js";
import type { ImportOptions, ImportResult } from "./types.js";

function parseObject(text: string, result: ImportResult, expected: string): Record<string, unknown> | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    result.skipped.push({ line: 0, reason: `invalid JSON: ${(e as Error).message}` });
    return null;
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    result.skipped.push({ line: 0, reason: `expected a JSON object ${expected}` });
    return null;
  }
  return doc as Record<string, unknown>;
}

/**
 * The polkadot-js phishing list `all.json`: `{ "allow": [domains], "deny": [domains] }`.
 * `deny` entries become `block` records labelled "phishing site (deny list)", `allow` entries `allow` records. In
 * `skipped`, `line` is the 1-based position in the array the reason names, or 0 for the whole input.
 */
export function parsePolkadotJsAll(text: string, opts: Omit<ImportOptions, "list">): ImportResult {
  checkOptions(opts);
  const result: ImportResult = { records: [], skipped: [] };
  const obj = parseObject(text, result, 'with "allow" and "deny" arrays');
  if (obj === null) return result;
  if (!("deny" in obj) && !("allow" in obj)) {
    result.skipped.push({ line: 0, reason: 'neither "allow" nor "deny" is present' });
    return result;
  }
  const type = opts.type ?? "domain";
  const seen = new Seen();
  for (const [key, list] of [["allow", "allow"], ["deny", "block"]] as const) {
    const entries = obj[key];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      result.skipped.push({ line: 0, reason: `"${key}" is not an array` });
      continue;
    }
    entries.forEach((entry: unknown, i) => {
      const line = i + 1;
      if (typeof entry !== "string") return void result.skipped.push({ line, reason: `${key}[${i}] is not a string` });
      const value = entry.trim().toLowerCase();
      const problem = valueProblem(value);
      if (problem !== null) return void result.skipped.push({ line, reason: `${key}[${i}]: ${problem}` });
      const dup = seen.check(list, value, line);
      if (dup !== null) return void result.skipped.push({ line, reason: `${key}[${i}]: duplicate of ${key}[${dup - 1}]` });
      result.records.push(makeRecord(value, list, opts.source, type, opts.label ?? (key === "deny" ? "phishing site (deny list)" : "legitimate site (allow list)")));
    });
  }
  return result;
}

/**
 * The polkadot-js phishing list `address.json`: `{ "<site>": ["<address>", …], … }`, the
 * addresses that scam sites asked for funds. Every address becomes a `block` record of type
 * wallet (case kept), labelled with the site it was seen on. In `skipped`, `line` is the 1-based
 * position in the site's array, or 0 for the whole input or a whole site entry.
 */
export function parsePolkadotJsAddresses(text: string, opts: Omit<ImportOptions, "list" | "type">): ImportResult {
  checkOptions(opts);
  const result: ImportResult = { records: [], skipped: [] };
  const obj = parseObject(text, result, "mapping sites to arrays of addresses");
  if (obj === null) return result;
  const seen = new Seen();
  for (const [site, addresses] of Object.entries(obj)) {
    if (!Array.isArray(addresses)) {
      result.skipped.push({ line: 0, reason: `${JSON.stringify(site.slice(0, 100))} is not an array of addresses` });
      continue;
    }
    addresses.forEach((entry: unknown, i) => {
      const line = i + 1;
      const where = `${site.slice(0, 100)}[${i}]`;
      if (typeof entry !== "string") return void result.skipped.push({ line, reason: `${where} is not a string` });
      const value = entry.trim();
      const problem = valueProblem(value);
      if (problem !== null) return void result.skipped.push({ line, reason: `${where}: ${problem}` });
      // The same address named by several sites is one record (labelled with the first site).
      if (seen.check("block", value, line) !== null) return;
      result.records.push(makeRecord(value, "block", opts.source, "wallet", opts.label ?? `address used by ${site.slice(0, 200)}`));
    });
  }
  return result;
}
