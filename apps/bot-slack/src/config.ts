// The Slack bot's settings are read by @svc/runtime's one configuration loader.
export { parseSlackConfig as parseConfig, type SlackConfig } from "@svc/runtime";
