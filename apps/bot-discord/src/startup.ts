import type { DiscordApp } from "./bot.js";

/** Where start-up stopped: logging in to the gateway, or registering the slash commands. */
export type StartupStage = "login" | "register";

/** The HTTP status of a REST refusal (discord.js `DiscordAPIError`/`HTTPError`), if it was one. */
function statusOf(e: unknown): number | null {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === "number" ? s : null;
}

/**
 * One line for the operator, never a stack trace or the request body (discord.js errors carry the
 * whole command list they tried to send): what went wrong and what to check.
 */
export function describeStartupFailure(stage: StartupStage, e: unknown): string {
  const status = statusOf(e);
  const code = (e as { code?: unknown } | null)?.code;
  const rejectedToken = status === 401 || code === "TokenInvalid";
  if (rejectedToken) {
    return `svc Discord bot: Discord rejected the token (401 Unauthorized ${stage === "login" ? "at login" : "while registering slash commands"}). Check DISCORD_TOKEN (Developer Portal → Bot → Reset Token).`;
  }
  const first = (e instanceof Error ? e.message : String(e)).split("\n")[0]?.slice(0, 200) ?? "";
  if (stage === "register") {
    return `svc Discord bot: could not register the slash commands (${status ?? "error"}: ${first}). Check DISCORD_APPLICATION_ID and DISCORD_GUILD_ID, and that the bot was invited with the applications.commands scope.`;
  }
  return `svc Discord bot: could not log in (${first}). Check DISCORD_TOKEN, and that the Message Content and Server Members intents are enabled.`;
}

/** Logs in and registers the slash commands; answers null, or the one line to print before exiting 1. */
export async function logInAndRegister(app: Pick<DiscordApp, "start" | "registerCommands">, guildId?: string): Promise<string | null> {
  try {
    await app.start();
  } catch (e) {
    return describeStartupFailure("login", e);
  }
  try {
    await app.registerCommands(guildId);
  } catch (e) {
    return describeStartupFailure("register", e);
  }
  return null;
}
