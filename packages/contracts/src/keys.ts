import { z } from "@hono/zod-openapi";

/** API keys over HTTP (/v1/keys): a key is shown once, in the creation answer; lists never carry it or its hash. */

const KeyName = z.string().trim().min(1).max(100).openapi({ example: "ci", description: "A label to tell keys apart." });
const PlanName = z.string().min(1).max(64).openapi({ example: "starter", description: "A plan this server knows (free, starter, pro)." });

export const CreateKeyRequestSchema = z
  .object({
    name: KeyName.optional(),
    plan: PlanName.optional().openapi({
      description: "With new_account: the new account's plan (default free). Otherwise a plan for this key only; a customer may not go above its own plan. Default: the account's plan.",
    }),
    account_id: z.string().min(1).max(64).optional().openapi({ description: "Operator only: an existing account to create the key for." }),
    new_account: z.string().trim().min(1).max(200).optional().openapi({ description: "Operator only: create a customer account with this name (and `plan`), and its first key." }),
  })
  .strict()
  .refine((b) => !(b.account_id !== undefined && b.new_account !== undefined), { message: "Give account_id or new_account, not both.", path: ["new_account"] })
  .openapi("CreateKeyRequest");

export const ApiKeyInfoSchema = z
  .object({
    id: z.string().openapi({ example: "key_4f1c…" }),
    account_id: z.string(),
    name: z.string().nullable(),
    prefix: z.string().openapi({ example: "svc_live_Ab12", description: "The key's first characters, to recognise it." }),
    plan: z.string().openapi({ description: "The plan requests with this key are limited by (the key's own, else the account's)." }),
    plan_is_account_plan: z.boolean().openapi({ description: "True when the key follows its account's plan." }),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .openapi("ApiKey");

export const CreatedKeySchema = ApiKeyInfoSchema.extend({
  key: z.string().openapi({ example: "svc_live_DBXLPUcacBW1MSFE6dX9CVgez2ml6UzY5gHsI8", description: "The key itself. Shown this once; only its SHA-256 is stored." }),
}).openapi("CreatedApiKey");

export const KeyListQuerySchema = z.object({
  account_id: z.string().min(1).max(64).optional().openapi({ description: "Operator only: another account's keys." }),
});

export const KeyListSchema = z.object({ items: z.array(ApiKeyInfoSchema) }).openapi("ApiKeyList");

export type CreateKeyRequestBody = z.infer<typeof CreateKeyRequestSchema>;
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;
export type CreatedKey = z.infer<typeof CreatedKeySchema>;
