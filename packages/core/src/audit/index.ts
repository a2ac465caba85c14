export type { AuditRecord, NewAuditRecord, AuditActor, AuditSourceOutcome, Channel } from "./audit-record.js";
export { CHANNELS } from "./audit-record.js";
export { canonicalJson } from "./canonical-json.js";
export { computeRecordHash, sealRecord, chainVerifier, verifyRecords, type ChainHead, type ChainBreak, type ChainVerification, type ChainVerifier } from "./record-hash.js";
export { encodeCursor, decodeCursor, sealCursor, openCursor, InvalidCursorError, type HistoryPosition } from "./history-cursor.js";
