export { SvcClient, SvcApiError, SvcUnreachableError, retryDelay, type ClientOptions, type Verdict, type BatchResponse, type History, type AuditRecord, type ReportAccepted, type Graph } from "./client.js";
export type { AuditVerification } from "@svc/contracts";
