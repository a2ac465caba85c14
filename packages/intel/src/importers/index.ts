export type { ImportOptions, ImportResult, IntelRecord, SkippedLine } from "./types.js";
export { parsePlainList } from "./plain-list.js";
export { parseHostsFile } from "./hosts.js";
export { parseEthPhishingDetect } from "./eth-phishing-detect.js";
export { parseIntelCsv, readCsv } from "./csv.js";
export type { CsvReadResult, CsvRow } from "./csv.js";
export { parsePolkadotJsAll, parsePolkadotJsAddresses } from "./polkadot-js.js";
export { parseOfacSdn } from "./ofac-sdn.js";
export type { OfacImportResult } from "./ofac-sdn.js";
