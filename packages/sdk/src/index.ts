export { SvcClient, SvcApiError, SvcUnreachableError, retryDelay, type ClientOptions, type Verdict, type BatchResponse, type History, type AuditRecord, type ReportAccepted, type Report, type ReportList, type Graph, type ApiKeyInfo, type CreatedKey, type CreateKeyRequestBody } from "./client.js";
export type { AuditVerification } from "@svc/contracts";
