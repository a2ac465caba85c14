import { AccountEntity, ApiKeyEntity } from "./account.js";
import { ChainHeadEntity, CheckEntity } from "./check.js";
import { GraphEdgeEntity, GraphNodeEntity, GraphNodeRiskEntity } from "./graph.js";
import { IdempotencyEntity } from "./idempotency.js";
import { UsageEntity } from "./usage.js";
import { RateWindowEntity } from "./rate-window.js";
import { IntelEntity, IntelFeedEntity } from "./intel.js";
import { ReportEntity, ReporterEntity } from "./report.js";
import { BOT_ENTITIES } from "./bot.js";
import { ServerSecretEntity } from "./server-secret.js";
import { ProviderCacheEntity } from "./provider-cache.js";
import { WEB_ENTITIES } from "./web.js";

export const ENTITIES = [
  AccountEntity, ApiKeyEntity, CheckEntity, ChainHeadEntity, IdempotencyEntity, UsageEntity, RateWindowEntity,
  ReportEntity, ReporterEntity, GraphNodeEntity, GraphNodeRiskEntity, GraphEdgeEntity, IntelEntity, IntelFeedEntity,
  ...BOT_ENTITIES,
  ServerSecretEntity,
  ProviderCacheEntity,
  ...WEB_ENTITIES,
];
