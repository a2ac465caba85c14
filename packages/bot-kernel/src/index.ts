/**
 * @svc/bot-kernel: the platform-neutral chat-bot behaviour shared by the Telegram, Discord,
 * Slack and WhatsApp apps. Apps map platform events to `BotKernel` calls and implement the
 * small `ChatPort`; everything else (settings, stats, members, reports) goes through ports
 * with in-memory implementations here and database adapters elsewhere.
 */
export * from "./reply.js";
export * from "./chat-port.js";
export * from "./ports.js";
export * from "./settings.js";
export * from "./commands.js";
export * from "./glob.js";
export { skeleton, compactSkeleton, MAX_NAME } from "./skeleton.js";
export { editDistance } from "./edit-distance.js";
export * from "./impersonation.js";
export * from "./policy.js";
export { VerdictCache, type VerdictCacheOptions } from "./verdict-cache.js";
export { StoreBuffers, type StoreBufferOptions } from "./store-buffers.js";
export { Monitor, domainAllowed, isTrustedUser, type IncomingMessage, type Capabilities, type ScanOutcome, type Assessment } from "./monitoring.js";
export { startLearn, recordLearn, routineDomains, baselineReply } from "./learn-mode.js";
export { JoinWindows, LockdownMutes, raidTriggered, type Join } from "./anti-raid.js";
export { defang, verdictReply, verdictBlocks } from "./render.js";
export { planFromPurchases, boundByApiKey } from "./plans.js";
export { refundWindowOpen, addBusinessDays } from "./refund-window.js";
export { BotKernel, DEFAULT_FEATURES, FEATURES, featuresWithout, kernelStores, type KernelStores, type KernelDeps, type KernelOptions, type FeatureFactory, type CommandContext, type PrivateMessage, type JoinEvent, type BotRights, type ChatKind } from "./bot-kernel.js";
// Feature modules (docs/bots/kernel.md): each a factory of the shared services and its own ports.
export type { FeatureModule, KernelServices, CommandRun, CommandHandlers, CommandOf, JoinState, LogEntry } from "./features/feature.js";
export { describeUser } from "./features/feature.js";
export { scanFeature, type ScanPorts } from "./features/scan.js";
export { moderationFeature, assessMessage, type ModerationPorts } from "./features/moderation.js";
export { antiRaidFeature, welcomeFeature, type AntiRaidPorts } from "./features/anti-raid.js";
export { settingsFeature, type SettingsPorts } from "./features/settings.js";
export { learnFeature, type LearnPorts } from "./features/learn.js";
export { impersonationFeature, type ImpersonationPorts } from "./features/impersonation.js";
export { reportsFeature, type ReportsPorts } from "./features/reports.js";
export { plansFeature, planAllows, ALWAYS_AVAILABLE, PLAN_UNLOCKS, unlocksFor, lowestPlanWith, type PlansPorts, type PlanUnlocks } from "./features/plans.js";
export { supportFeature, type SupportPorts } from "./features/support.js";
export { InMemorySettingsStore } from "./in-memory-settings-store.js";
export { InMemoryStatsStore } from "./in-memory-stats-store.js";
export { InMemoryReportSink } from "./in-memory-report-sink.js";
export { InMemorySupportDesk } from "./in-memory-support-desk.js";
export { InMemoryMemberDirectory } from "./in-memory-member-directory.js";
export { InMemoryPaymentLedger } from "./in-memory-payment-ledger.js";
export { InMemoryPlanResolver } from "./in-memory-plan-resolver.js";
export { InMemoryChatPort, type ChatCall } from "./in-memory-chat-port.js";
export { ManualClock, systemClock } from "./manual-clock.js";
export { InMemoryScreening, makeVerdict } from "./in-memory-screening.js";
// Port contract suites (vitest is passed in, never imported at run time): see contracts/index.ts.
export * from "./contracts/index.js";
export { conversationContract, conversationScreening, type ConversationCapabilities, type ConversationDriver, type MakeConversationDriver, type Observed, type Person } from "./contracts/conversation-contract.js";
