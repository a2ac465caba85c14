/** What start-up needs of the configuration to explain a failure. */
export interface StartupSettings {
  readonly TELEGRAM_BOT_TOKEN: string;
  readonly TELEGRAM_API_ROOT?: string | undefined;
}

const DEFAULT_API_ROOT = "https://api.telegram.org";

/** The Bot API's answer on a refused call (grammY's `GrammyError`), if it was one. */
function refusalOf(e: unknown): { code: number; description: string } | null {
  const o = e as { error_code?: unknown; description?: unknown } | null;
  return typeof o?.error_code === "number" ? { code: o.error_code, description: typeof o.description === "string" ? o.description : "" } : null;
}

/** Why a call never got an answer: grammY's `HttpError` wraps the fetch error as `error`. */
function networkReason(e: unknown): string {
  const cause = (e as { error?: unknown } | null)?.error ?? e;
  const text = cause instanceof Error ? cause.message : String(cause);
  // node-fetch says "request to <url> failed, reason: <why>"; the URL holds the token.
  const why = /reason: (.*)$/su.exec(text)?.[1] ?? text;
  return why.split("\n")[0]?.slice(0, 200) ?? "";
}

/**
 * One line for the operator, never a stack trace: what went wrong at start-up and what to check.
 * The token is part of every Bot API URL, so it is cut out of anything quoted from an error.
 */
export function describeStartupFailure(method: string, e: unknown, s: StartupSettings): string {
  const root = s.TELEGRAM_API_ROOT ?? DEFAULT_API_ROOT;
  const refusal = refusalOf(e);
  let line: string;
  if (refusal && (refusal.code === 401 || refusal.code === 404)) {
    // Telegram answers 404 as well as 401 to a token it does not know.
    line = `svc Telegram bot: the Bot API at ${root} rejected the token (${refusal.code} ${refusal.description} on ${method}). Check TELEGRAM_BOT_TOKEN (@BotFather → /mybots → API Token).`;
  } else if (refusal?.code === 409) {
    line = `svc Telegram bot: another process uses this token (${refusal.code} ${refusal.description} on ${method}). Run one bot process per token, in one mode (TELEGRAM_MODE).`;
  } else if (refusal) {
    line = `svc Telegram bot: the Bot API at ${root} refused ${method} (${refusal.code} ${refusal.description}).`;
  } else {
    line = `svc Telegram bot: cannot reach the Bot API at ${root} (${method}: ${networkReason(e)}). Check this machine's network and proxy, or TELEGRAM_API_ROOT.`;
  }
  return line.split(s.TELEGRAM_BOT_TOKEN).join("<TELEGRAM_BOT_TOKEN>");
}

/** Runs one start-up call; answers null, or the one line to print before exiting 1. */
export async function startupStep(method: string, call: () => Promise<unknown>, s: StartupSettings): Promise<string | null> {
  try {
    await call();
    return null;
  } catch (e) {
    return describeStartupFailure(method, e, s);
  }
}
