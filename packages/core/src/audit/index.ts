export type { AuditRecord, AuditHashVersion, NewAuditRecord, AuditActor, AuditSourceOutcome, Channel } from "./audit-record.js";
export { CHANNELS } from "./audit-record.js";
export { canonicalJson, canonicalJsonOnce, serialisedOnce } from "./canonical-json.js";
export {
  auditColumnsOf, chainHeadMacInput, chainVerifier, legacyRecordHash, recordMacInput, sealChainHead, sealRecord, verifyRecords,
  type AuditColumns, type ChainBreak, type ChainHead, type ChainStart, type ChainVerification, type ChainVerifier,
} from "./record-hash.js";
export { encodeCursor, decodeCursor, sealCursor, openCursor, InvalidCursorError, type HistoryPosition } from "./history-cursor.js";
