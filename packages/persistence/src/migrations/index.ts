import { InitialSchema1795305600000 } from "./1795305600000-initial-schema.js";
import { JobsAndWebhooks1795305700000 } from "./1795305700000-jobs-and-webhooks.js";
import { BotState1795305800000 } from "./1795305800000-bot-state.js";
import { AccountRoles1795305900000 } from "./1795305900000-account-roles.js";
import { GraphScopes1795306000000 } from "./1795306000000-graph-scopes.js";
import { ReportModeration1795306100000 } from "./1795306100000-report-moderation.js";
import { ApiKeyNames1795306200000 } from "./1795306200000-api-key-names.js";
import { ConfigurablePlans1795306300000 } from "./1795306300000-configurable-plans.js";
import { IdempotencyLeases1795306400000 } from "./1795306400000-idempotency-leases.js";
import { KeyedAuditHashes1795306500000 } from "./1795306500000-keyed-audit-hashes.js";
import { ServerSecretsAndAuditSignals1795306600000 } from "./1795306600000-server-secrets-and-audit-signals.js";
import { IntelFeeds1795311000000 } from "./1795311000000-intel-feeds.js";
import { BotPaymentsPerChat1795312000000 } from "./1795312000000-bot-payments-per-chat.js";
import { BotPolicyPerLevel1795312000100 } from "./1795312000100-bot-policy-per-level.js";
import { SlackInstallations1795314000000 } from "./1795314000000-slack-installations.js";
import { BotAdminsAndSeenEvents1795315000000 } from "./1795315000000-bot-admins-and-seen-events.js";
import { WebAccounts1795316000000 } from "./1795316000000-web-accounts.js";
import { BillingAndDataHandling1795317000000 } from "./1795317000000-billing-and-data-handling.js";
import { CheckIdempotencyKeys1795318000000 } from "./1795318000000-check-idempotency-keys.js";
import { ProviderCache1795319000000 } from "./1795319000000-provider-cache.js";
import { CheckExportColumns1795320000000 } from "./1795320000000-check-export-columns.js";
import { BotSettingsVersion1796100000000 } from "./1796100000000-bot-settings-version.js";
import { SupportReplies1796100000100 } from "./1796100000100-support-replies.js";
import { CheckRecordsAsJson1796100000200 } from "./1796100000200-check-records-as-json.js";
import { CheckExportRows1796100000300 } from "./1796100000300-check-export-rows.js";

/** In order. A new migration is a new class appended here; a released one is never edited. */
export const MIGRATIONS = [
  InitialSchema1795305600000,
  JobsAndWebhooks1795305700000,
  BotState1795305800000,
  AccountRoles1795305900000,
  GraphScopes1795306000000,
  ReportModeration1795306100000,
  ApiKeyNames1795306200000,
  ConfigurablePlans1795306300000,
  IdempotencyLeases1795306400000,
  KeyedAuditHashes1795306500000,
  ServerSecretsAndAuditSignals1795306600000,
  IntelFeeds1795311000000,
  BotPaymentsPerChat1795312000000,
  BotPolicyPerLevel1795312000100,
  SlackInstallations1795314000000,
  BotAdminsAndSeenEvents1795315000000,
  WebAccounts1795316000000,
  BillingAndDataHandling1795317000000,
  CheckIdempotencyKeys1795318000000,
  ProviderCache1795319000000,
  CheckExportColumns1795320000000,
  BotSettingsVersion1796100000000,
  SupportReplies1796100000100,
  CheckRecordsAsJson1796100000200,
  CheckExportRows1796100000300,
];
