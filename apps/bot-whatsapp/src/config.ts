// The WhatsApp bot's settings are read by @svc/runtime's one configuration loader.
export { listenAddress, parseWhatsAppConfig as parseConfig, type WhatsAppConfig } from "@svc/runtime";
