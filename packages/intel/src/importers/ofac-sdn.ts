import { SaxesParser } from "saxes";
import { checkOptions, makeRecord, Seen, valueProblem } from "./common.js";
import type { ImportOptions, ImportResult } from "./types.js";

const ID_TYPE_PREFIX = "Digital Currency Address - ";

export interface OfacImportResult extends ImportResult {
  /** `Publish_Date` of the list (as written, e.g. "11/20/2026"), when present. */
  readonly publishDate?: string;
}

/**
 * OFAC's SDN list in its XML form (`sdn.xml`): every `<id>` whose `<idType>` is
 * "Digital Currency Address - XBT" (ETH, XMR, USDT, …) becomes a `block` record of type wallet
 * (case kept) labelled "sanctioned: <name> (<programs>; <currency>)". Everything else in the list
 * (names, passports, vessels) is not an entity svc screens and is left alone.
 *
 * The XML is checked for well-formedness as a whole: a truncated or broken document yields no
 * records and one whole-input problem (`line: 0`) naming where it broke, never a partial list.
 * `line` of other problems is the line of the `<idNumber>` in the document.
 */
export function parseOfacSdn(text: string, opts: Omit<ImportOptions, "list" | "type">): OfacImportResult {
  checkOptions(opts);
  const records: ImportResult["records"] = [];
  const skipped: ImportResult["skipped"] = [];
  const seen = new Seen();
  const parser = new SaxesParser({ position: true });
  const path: string[] = [];
  let textBuf = "";
  let rootSeen = false;
  let publishDate: string | undefined;
  // The sdnEntry being read.
  let name: { first: string; last: string } = { first: "", last: "" };
  let programs: string[] = [];
  let ids: { type: string; number: string; line: number }[] = [];
  let idType = "";
  let idNumber = "";
  let idLine = 0;
  let failure: string | null = null;

  parser.on("error", (e) => {
    failure ??= `malformed XML: ${e.message}`;
  });
  parser.on("opentag", (tag) => {
    const local = tag.name.slice(tag.name.indexOf(":") + 1);
    if (path.length === 0) rootSeen = local === "sdnList";
    path.push(local);
    textBuf = "";
    if (local === "sdnEntry") {
      name = { first: "", last: "" };
      programs = [];
      ids = [];
    } else if (local === "id") {
      idType = "";
      idNumber = "";
      idLine = 0;
    }
  });
  parser.on("text", (t) => {
    textBuf += t;
  });
  parser.on("cdata", (t) => {
    textBuf += t;
  });
  parser.on("closetag", (tag) => {
    const local = tag.name.slice(tag.name.indexOf(":") + 1);
    const parent = path[path.length - 2];
    const value = textBuf.trim();
    if (parent === "sdnEntry" && local === "firstName") name.first = value;
    else if (parent === "sdnEntry" && local === "lastName") name.last = value;
    else if (parent === "programList" && local === "program") programs.push(value);
    else if (parent === "publshInformation" && local === "Publish_Date") publishDate = value;
    else if (parent === "id" && local === "idType") idType = value;
    else if (parent === "id" && local === "idNumber") {
      idNumber = value;
      idLine = parser.line;
    } else if (local === "id" && idType.startsWith(ID_TYPE_PREFIX)) ids.push({ type: idType.slice(ID_TYPE_PREFIX.length), number: idNumber, line: idLine });
    else if (local === "sdnEntry") {
      const who = [name.first, name.last].filter((s) => s !== "").join(" ") || "unnamed entry";
      for (const id of ids) {
        const problem = valueProblem(id.number);
        if (problem !== null) {
          skipped.push({ line: id.line, reason: `${who} (${id.type}): ${problem}` });
          continue;
        }
        if (seen.check("block", id.number, id.line) !== null) continue;
        const label = `sanctioned: ${who}${programs.length > 0 ? ` (${programs.join(", ")}; ${id.type})` : ` (${id.type})`}`;
        records.push(makeRecord(id.number, "block", opts.source, "wallet", opts.label ?? label.slice(0, 300)));
      }
    }
    path.pop();
    textBuf = "";
  });

  try {
    parser.write(text.replace(/^\uFEFF/, "")).close();
  } catch (e) {
    failure ??= `malformed XML: ${(e as Error).message}`;
  }
  if (failure === null && !rootSeen) failure = "not an OFAC SDN list: the root element is not <sdnList>";
  if (failure !== null) return { records: [], skipped: [{ line: 0, reason: failure }] };
  return { records, skipped, ...(publishDate !== undefined && publishDate !== "" ? { publishDate } : {}) };
}
