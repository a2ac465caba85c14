import { InitialSchema1795305600000 } from "./1795305600000-initial-schema.js";
import { JobsAndWebhooks1795305700000 } from "./1795305700000-jobs-and-webhooks.js";
import { BotState1795305800000 } from "./1795305800000-bot-state.js";
import { AccountRoles1795305900000 } from "./1795305900000-account-roles.js";
import { KeyedAuditHashes1795306500000 } from "./1795306500000-keyed-audit-hashes.js";

/** In order. A new migration is a new class appended here; a released one is never edited. */
export const MIGRATIONS = [InitialSchema1795305600000, JobsAndWebhooks1795305700000, BotState1795305800000, AccountRoles1795305900000, KeyedAuditHashes1795306500000];
