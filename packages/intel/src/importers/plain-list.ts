import { checkOptions, makeRecord, normaliseValue, Seen, splitLines, valueProblem } from "./common.js";
import type { ImportOptions, ImportResult } from "./types.js";

/**
 * Plain lists: one entity per line. Blank lines and `#` comments (whole-line, or after
 * whitespace at the end of a line) are ignored; a `#` inside a value (a URL fragment) is kept.
 */
export function parsePlainList(text: string, opts: ImportOptions): ImportResult {
  checkOptions(opts);
  const list = opts.list ?? "block";
  const result: ImportResult = { records: [], skipped: [] };
  const seen = new Seen();
  splitLines(text).forEach((rawLine, i) => {
    const line = i + 1;
    const body = rawLine.replace(/(^|\s)#.*$/, "").trim();
    if (body === "") return;
    const problem = valueProblem(body);
    if (problem !== null) {
      result.skipped.push({ line, reason: problem });
      return;
    }
    const value = normaliseValue(body, opts.type, opts.preserveCase);
    const dup = seen.check(list, value, line);
    if (dup !== null) {
      result.skipped.push({ line, reason: `duplicate of line ${dup}` });
      return;
    }
    result.records.push(makeRecord(value, list, opts.source, opts.type, opts.label));
  });
  return result;
}
