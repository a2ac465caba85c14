import { checkOptions, makeRecord, Seen, valueProblem } from "./common.js";
import type { ImportOptions, ImportResult } from "./types.js";

/**
 * The three lists of an eth-phishing-detect config and what each becomes. The label is what a
 * verdict says of a match ("Listed as phishing site (blacklist) by feed:…"), so it names the
 * kind of entry first and the list it came from after.
 */
const LISTS = [
  // Legitimate sites that look like protected brands: allow.
  { key: "whitelist", list: "allow", label: "legitimate site (whitelist)" },
  // Known phishing sites: block.
  { key: "blacklist", list: "block", label: "phishing site (blacklist)" },
  // The protected brands lookalikes are measured against: allow.
  { key: "fuzzylist", list: "allow", label: "protected brand (fuzzylist)" },
] as const;

/**
 * The eth-phishing-detect config format:
 * `{ "version": 2, "tolerance": 2, "fuzzylist": [...], "whitelist": [...], "blacklist": [...] }`.
 * Whitelist entries become `allow` records, blacklist entries `block` records, and fuzzylist
 * entries (the protected brands) `allow` records labelled "protected brand (fuzzylist)". In `skipped`, `line` is
 * the 1-based position in the array the reason names, or 0 for problems with the whole input.
 */
export function parseEthPhishingDetect(text: string, opts: Omit<ImportOptions, "list">): ImportResult {
  checkOptions(opts);
  const result: ImportResult = { records: [], skipped: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    result.skipped.push({ line: 0, reason: `invalid JSON: ${(e as Error).message}` });
    return result;
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    result.skipped.push({ line: 0, reason: "expected a JSON object with fuzzylist, whitelist and blacklist arrays" });
    return result;
  }
  const obj = doc as Record<string, unknown>;
  if (!LISTS.some(({ key }) => key in obj)) {
    result.skipped.push({ line: 0, reason: "none of fuzzylist, whitelist, blacklist is present" });
    return result;
  }
  const type = opts.type ?? "domain";
  const seen = new Seen();
  for (const { key, list, label } of LISTS) {
    const entries = obj[key];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      result.skipped.push({ line: 0, reason: `"${key}" is not an array` });
      continue;
    }
    entries.forEach((entry: unknown, i) => {
      const line = i + 1;
      if (typeof entry !== "string") {
        result.skipped.push({ line, reason: `${key}[${i}] is not a string` });
        return;
      }
      const value = entry.trim().toLowerCase();
      const problem = valueProblem(value);
      if (problem !== null) {
        result.skipped.push({ line, reason: `${key}[${i}]: ${problem}` });
        return;
      }
      const dup = seen.check(`${list}/${label}`, value, line);
      if (dup !== null) {
        result.skipped.push({ line, reason: `${key}[${i}]: duplicate of ${key}[${dup - 1}]` });
        return;
      }
      result.records.push(makeRecord(value, list, opts.source, type, label));
    });
  }
  return result;
}
