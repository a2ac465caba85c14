import { spell, type ConversationDriver, type InMemoryScreening, type Observed, type Person } from "@svc/bot-kernel";
import { everyRowAsText, ReusableTestDatabases } from "@svc/persistence";
import type { FakeCall } from "./fake-slack-api.js";
import { ADMIN, CHANNEL, createHarness, MEMBER, PRO_KEY, type CommandAnswer, type Engine } from "./test-harness.js";

/* The shared conversation contract's driver for Slack (`conversationContract` in @svc/bot-kernel). */

/** One migrated database per engine for every conversation of a test file; each starts on emptied bot tables. */
export const slackTestDatabases = new ReusableTestDatabases("svc_slack");
const botTables = (t: string): boolean => t.startsWith("bot_") || t.startsWith("slack_") || t === "reports";

/** The member's direct-message channel with the app (an `im` conversation). */
const DM_CHANNEL = "D0DIRECT01";

const userOf = (p: Person): { id: string; name: string } => (p.role === "admin" ? ADMIN : p.role === "member" ? MEMBER : { id: `U0RAIDER${p.n}`, name: `raider${p.n}` });

/**
 * Text as a Slack client delivers it in a message event: `&`, `<`, `>` escaped, links wrapped as
 * `<url>` and bare domains auto-linked as `<http://domain|domain>`.
 */
export function slackMarkup(plain: string): string {
  return plain
    .split(/(\s+)/u)
    .map((word) => {
      if (/^\s*$/u.test(word)) return word;
      let cut = word.length;
      while (cut > 0 && ".,!?;:)".includes(word[cut - 1] as string)) cut--;
      const core = word.slice(0, cut);
      const tail = word.slice(cut);
      const esc = core.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
      if (/^https?:\/\/\S+$/iu.test(core)) return `<${esc}>${tail}`;
      if (/^(?:[a-z0-9-]+\.)+[a-z]{2,}$/iu.test(core)) return `<http://${esc}|${esc}>${tail}`;
      return `${esc}${tail}`;
    })
    .join("");
}

/** Block Kit (header, section, context) as the plain text a user reads. */
function blocksText(blocks: readonly Record<string, unknown>[] | undefined, fallback: string): string {
  if (!blocks || blocks.length === 0) return fallback;
  const lines: string[] = [];
  for (const b of blocks) {
    const t = b.text as { text?: string } | undefined;
    if (typeof t?.text === "string") lines.push(t.text);
    for (const e of (b.elements as { text?: unknown }[] | undefined) ?? []) if (typeof e.text === "string") lines.push(e.text);
  }
  return lines.join("\n").replaceAll("`", "").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/**
 * Drives the Slack app through its signed HTTP front (slash commands form-encoded, Events API
 * deliveries as JSON, each signed v0 like Slack signs them) on 127.0.0.1, with a fake Web API;
 * reads back what the bot did: ephemeral command answers (in the HTTP answer) and the Web API
 * calls it made. Slack is notify-only and the app reads no joins: no delete, ban, mute or joins.
 */
export function slackConversationDriver(engine: Engine): (screening: InMemoryScreening) => Promise<ConversationDriver> {
  return async (screening) => {
    const h = await createHarness(engine, { screening, dataSource: await slackTestDatabases.empty(engine, botTables) });
    h.api.joined.add(DM_CHANNEL);
    let seenCalls = 0;
    const answers: Observed[] = [];
    const observe = (c: FakeCall): Observed[] => {
      if (!c.ok) return [];
      if (c.method === "chat.delete") return [{ kind: "delete" }];
      if (c.method !== "chat.postMessage") return [];
      const channel = String(c.params.channel);
      const where = channel === CHANNEL ? "group" : channel.startsWith("D") ? "private" : "elsewhere";
      return [{ kind: "message", where, text: blocksText(c.params.blocks as Record<string, unknown>[] | undefined, String(c.params.text ?? "")) }];
    };
    /** Web API calls made since the last look, then the command's own answer (ephemeral, in the channel). */
    const collect = (answer: CommandAnswer = null): void => {
      answers.push(...h.api.calls.slice(seenCalls).flatMap(observe));
      seenCalls = h.api.calls.length;
      if (answer?.text !== undefined || answer?.blocks) answers.push({ kind: "message", where: "group", text: blocksText(answer.blocks, answer.text ?? "") });
    };
    const expectOk = (res: Response): void => {
      if (res.status !== 200) throw new Error(`Slack event answered ${res.status}`);
    };
    const command = async (from: Person, name: Parameters<ConversationDriver["command"]>[1], args: string): Promise<void> => {
      collect(await h.commandAnswer(userOf(from), spell("slack", name), args));
    };
    return {
      dialect: "slack",
      capabilities: { delete: false, ban: false, mute: false, unmute: false, joins: false },
      async addBotAsAdmin() {
        // Installing the app is what "adding the bot" is on Slack; then a Pro plan and monitoring.
        await h.install();
        await command({ role: "admin" }, "connect", PRO_KEY);
        await command({ role: "admin" }, "monitor", "");
      },
      async post(from, text) {
        expectOk(await h.message(userOf(from), slackMarkup(text)));
        collect();
      },
      command,
      async dm(from, text) {
        h.clock.advance(1000);
        const ts = `${Math.floor(h.clock.now().getTime() / 1000)}.000100`;
        expectOk(await h.event({ type: "message", channel: DM_CHANNEL, user: userOf(from).id, text: slackMarkup(text), ts, channel_type: "im" }));
        collect();
      },
      join() {
        return Promise.reject(new Error("The Slack app reads no joins (capabilities.joins is false)"));
      },
      async advance(ms) {
        h.clock.advance(ms);
        await h.rt.app.kernel.tick();
        collect();
      },
      async take() {
        collect();
        return answers.splice(0, answers.length);
      },
      stored: async () => {
        // Counters wait in memory for up to a second: write them, so the dump holds everything the bot keeps.
        await h.rt.app.kernel.flush();
        return everyRowAsText(h.rt.dataSource);
      },
      async close() {
        await h.close();
        if (h.errors.length > 0) throw new Error(`The Slack app reported errors: ${h.errors.map(String).join("; ")}`);
      },
    };
  };
}
