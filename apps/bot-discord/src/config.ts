// The Discord bot's settings are read by @svc/runtime's one configuration loader.
export { applicationIdFromToken, parseDiscordConfig as parseConfig, type DiscordConfig } from "@svc/runtime";
