// The Telegram bot's settings are read by @svc/runtime's one configuration loader.
export { parseTelegramConfig as parseConfig, type TelegramConfig } from "@svc/runtime";
