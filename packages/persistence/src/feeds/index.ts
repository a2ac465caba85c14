export { FEED_FORMATS, FeedDefinitionSchema, FeedListSchema, parseFeedsSetting, type FeedDefinition, type FeedFormat } from "./config.js";
export { FeedError, fetchFeed, type FeedErrorCode, type Fetched, type FetchOptions, type Validators } from "./fetch.js";
export { FeedSync, feedSource, parseFeed, type FeedSyncOptions, type FeedSyncResult } from "./sync.js";
export { startFeedSchedule, type FeedSchedule } from "./schedule.js";
