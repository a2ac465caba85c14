import { z } from "@hono/zod-openapi";
import { safeText } from "./text.js";

/** The public wire format of /v1. Every request is validated with these and every response is shaped by them. */

export const EntityTypeSchema = z.enum(["domain", "url", "wallet", "email", "ip_address", "phone", "social_account"]).openapi("EntityType");
export const RiskLevelSchema = z.enum(["low", "medium", "high", "critical"]).openapi("RiskLevel");
const Severity = z.enum(["info", "low", "medium", "high", "critical"]);
const Json = z.any().openapi({ description: "JSON value" });

export const ScreenRequestSchema = z
  .object({
    entity_value: z.string().min(1).max(4096).openapi({ example: "paypa1.com", description: "The entity to check, as pasted; the type is detected." }),
    type: EntityTypeSchema.optional().openapi({ description: "Explicit type; must match the value (422 otherwise)." }),
  })
  .strict()
  .openapi("ScreenRequest");

export const SignalSchema = z
  .object({
    code: z.string().openapi({ example: "domain.lookalike_brand" }),
    category: z.string().openapi({ example: "impersonation" }),
    severity: Severity,
    points: z.number().int().min(0).max(100),
    message: z.string().openapi({ example: "Looks like paypal.com (one character replaced: l → 1)" }),
    source: z.object({ name: z.string(), version: z.string() }),
    evidence: z.record(z.string(), Json),
    observed_at: z.string(),
    expires_at: z.string().nullable(),
  })
  .openapi("Signal");

export const VerdictSchema = z
  .object({
    id: z.string().openapi({ example: "chk_01jd3x…" }),
    entity: z.object({ type: EntityTypeSchema, value: z.string(), input: z.string(), id: z.string() }),
    risk_score: z.number().int().min(0).max(100),
    risk_level: RiskLevelSchema,
    recommended_action: z.enum(["allow", "review", "block"]),
    confidence: z.enum(["low", "medium", "high"]),
    confidence_score: z.number().min(0).max(1),
    signals: z.array(SignalSchema),
    attributes: z.record(z.string(), Json),
    coverage: z.object({ evaluated: z.array(z.string()), unavailable: z.array(z.object({ source: z.string(), reason: z.string() })) }),
    policy: z.object({ ruleset: z.string(), thresholds: z.object({ review: z.number(), block: z.number() }) }),
    evaluated_at: z.string(),
    expires_at: z.string(),
    disclaimer: z.string(),
  })
  .openapi("Verdict");

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "https://svc.dev/problems/entity.unrecognized" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().openapi({ example: "entity.unrecognized" }),
    request_id: z.string(),
    retryable: z.boolean(),
    errors: z.array(z.object({ pointer: z.string(), code: z.string(), message: z.string() })).optional(),
  })
  .openapi("Problem");

export const BatchRequestSchema = z
  .object({ entities: z.array(z.union([z.string().min(1).max(4096), ScreenRequestSchema])).min(1).max(100) })
  .strict()
  .openapi("BatchRequest");

export const BatchResponseSchema = z
  .object({
    results: z.array(
      z.object({
        index: z.number().int(),
        status: z.enum(["ok", "error"]),
        result: VerdictSchema.optional(),
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
    summary: z.object({ total: z.number().int(), ok: z.number().int(), error: z.number().int(), unique: z.number().int(), by_level: z.record(z.string(), z.number().int()) }),
  })
  .openapi("BatchResponse");

const IsoDate = z.string().datetime({ offset: true });

export const HistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
  type: EntityTypeSchema.optional(),
  risk_level: RiskLevelSchema.optional(),
  since: IsoDate.optional(),
  until: IsoDate.optional(),
});

export const HistoryItemSchema = z
  .object({
    id: z.string(),
    entity: z.object({ type: EntityTypeSchema, value: z.string(), input: z.string(), id: z.string() }),
    risk_score: z.number().int(),
    risk_level: RiskLevelSchema,
    confidence: z.enum(["low", "medium", "high"]),
    channel: z.string(),
    evaluated_at: z.string(),
  })
  .openapi("HistoryItem");

export const HistoryResponseSchema = z.object({ items: z.array(HistoryItemSchema), next_cursor: z.string().nullable() }).openapi("History");

export const AuditRecordSchema = z
  .object({
    id: z.string(),
    created_at: z.string(),
    request: z.object({ entity_value: z.string(), type: z.string().optional() }),
    entity: z.record(z.string(), Json),
    verdict: VerdictSchema,
    source_outcomes: z.array(z.object({ source: z.string(), status: z.string(), ms: z.number() })),
    ruleset: z.string(),
    data_versions: z.record(z.string(), z.string()),
    /** Every signal of the check, zero-point ones included (an allowlisted verdict lists fewer); absent on older records. */
    signals: z.array(SignalSchema).optional(),
    actor: z.object({ key_id: z.string().nullable(), channel: z.string() }),
    prev_hash: z.string().nullable(),
    record_hash: z.string(),
    hash_version: z.number().int().openapi({ description: "2: HMAC-SHA-256 under the server's audit key; 1: plain SHA-256 (records from before keyed hashing)." }),
    hash_key_id: z.string().nullable().openapi({ description: "The audit key that sealed the record (version 2)." }),
  })
  .openapi("AuditRecord");

export const ExportQuerySchema = z.object({
  since: IsoDate.optional(),
  until: IsoDate.optional(),
  type: EntityTypeSchema.optional(),
  risk_level: RiskLevelSchema.optional(),
});

export const ReportRequestSchema = z
  .object({
    entity_value: z.string().min(1).max(4096),
    type: EntityTypeSchema.optional(),
    category: z.enum(["phishing", "scam", "impersonation", "malware", "spam", "fraud", "drainer", "other"]),
    description: safeText(z.string().max(2000)).optional(),
    evidence_urls: z.array(safeText(z.string().url().max(2048))).max(10).optional(),
    related_entities: z.array(safeText(z.string().min(1).max(4096))).max(20).optional(),
    check_id: safeText(z.string().max(64)).optional(),
    feedback: z.enum(["false_positive", "false_negative"]).optional(),
  })
  .strict()
  .openapi("ReportRequest");

export const ReportAcceptedSchema = z
  .object({
    id: z.string(),
    status: z.literal("received"),
    moderation_status: z.enum(["unverified", "confirmed", "rejected"]),
    entity: z.object({ type: EntityTypeSchema, value: z.string(), id: z.string() }),
  })
  .openapi("ReportAccepted");

export const GraphQuerySchema = z.object({
  depth: z.coerce.number().int().min(1).max(4).default(2),
  max_nodes: z.coerce.number().int().min(1).max(500).default(100),
  relation: z.string().max(64).optional(),
});

export const GraphResponseSchema = z
  .object({
    root: z.string(),
    nodes: z.array(z.object({ id: z.string(), type: z.string(), value: z.string(), risk_score: z.number().nullable(), risk_level: z.string().nullable(), depth: z.number().int() })),
    edges: z.array(z.object({ from: z.string(), to: z.string(), relation: z.string(), weight: z.number(), first_seen: z.string(), last_seen: z.string(), source: z.string() })),
    truncated: z.boolean(),
  })
  .openapi("Graph");

export type ScreenRequestBody = z.infer<typeof ScreenRequestSchema>;
export type BatchRequestBody = z.infer<typeof BatchRequestSchema>;
export type ReportRequestBody = z.infer<typeof ReportRequestSchema>;
export type VerdictBody = z.infer<typeof VerdictSchema>;
export type ProblemBody = z.infer<typeof ProblemSchema>;
