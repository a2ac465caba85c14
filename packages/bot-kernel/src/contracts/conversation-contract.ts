import { spell, type CommandName, type Dialect } from "../commands.js";
import { InMemoryScreening } from "../in-memory-screening.js";
import type { TestApi } from "./fixture.js";

/**
 * The conversation contract: one scripted admin/member/raider conversation that every platform
 * adapter runs through its own wire format, so the bots behave alike everywhere. A platform
 * plugs in with a small `ConversationDriver` that turns the script's steps into platform
 * events (updates, gateway events, webhooks) and the platform's outgoing calls back into
 * `Observed` actions. See docs/bots/kernel.md.
 *
 * A platform that cannot do a step says so in `capabilities`, and the script then asserts what
 * the platform does instead: a warning where a delete is impossible, a plain "not available"
 * where bots hear of no joins (so there is no anti-raid). Nothing is skipped.
 */

/** A person in the script: the group's admin (its owner), a member, or the n-th raider. */
export type Person = { readonly role: "admin" } | { readonly role: "member" } | { readonly role: "raider"; readonly n: number };

/** What the bot did, as the platform's outgoing calls show it. */
export type Observed =
  | { readonly kind: "message"; readonly where: "group" | "private" | "elsewhere"; readonly text: string }
  | { readonly kind: "delete" }
  | { readonly kind: "ban"; readonly who: Person | null }
  | { readonly kind: "mute"; readonly who: Person | null }
  | { readonly kind: "unmute"; readonly who: Person | null }
  | { readonly kind: "unban"; readonly who: Person | null };

/** What the platform lets bots do; the script expects only these actions, and the alternative where one is missing. */
export interface ConversationCapabilities {
  /** Delete a member's message (else the warning under it is the whole action: notify only). */
  readonly delete: boolean;
  readonly ban: boolean;
  readonly mute: boolean;
  readonly unmute: boolean;
  /** The platform tells bots who joins the group (else anti-raid is not offered, and `join` is never called). */
  readonly joins: boolean;
}

export interface ConversationDriver {
  /** How the platform spells commands. */
  readonly dialect: Dialect;
  readonly capabilities: ConversationCapabilities;
  /** The bot is made an admin of the group with every right it asks for. */
  addBotAsAdmin(): Promise<void>;
  /** A plain message in the group (plain text; the platform's own formatting is the driver's business). */
  post(from: Person, text: string): Promise<void>;
  /** A command in the group, spelled and delivered the platform's way (text, slash command, interaction). */
  command(from: Person, name: CommandName, args: string): Promise<void>;
  /** A direct message to the bot. */
  dm(from: Person, text: string): Promise<void>;
  /** Someone joins the group (only called when `capabilities.joins`). */
  join(who: Person): Promise<void>;
  /** Moves the bot's clock on and runs its timer (lockdowns lift, learning ends). */
  advance(ms: number): Promise<void>;
  /** Everything the bot did since the last call, oldest first; message texts as plain text. */
  take(): Promise<readonly Observed[]>;
  /**
   * Everything the bot keeps in its database, as text (every row of every table), so the script
   * can check that no message text is stored. Absent only where the platform's test bot keeps
   * its state in memory (the stores' own privacy contract covers those).
   */
  stored?(): Promise<string>;
  close(): Promise<void>;
}

/** Makes a driver for a fresh group whose bot screens through `screening` (any ScreeningPort will do). */
export type MakeConversationDriver = (screening: InMemoryScreening) => Promise<ConversationDriver>;

/** The verdicts the script relies on. */
export function conversationScreening(): InMemoryScreening {
  return new InMemoryScreening().set("paypa1.com", "critical", "Looks like paypal.com (one character replaced)").set("claim-airdrop.top", "high", "Suspicious top-level domain and airdrop keyword");
}

const admin: Person = { role: "admin" };
const member: Person = { role: "member" };
const raider = (n: number): Person => ({ role: "raider", n });

export function conversationContract(t: TestApi, name: string, make: MakeConversationDriver): void {
  const { describe, it, expect } = t;
  const messages = (o: readonly Observed[], where: "group" | "private" = "group"): string[] => o.flatMap((x) => (x.kind === "message" && x.where === where ? [x.text] : []));
  const kinds = (o: readonly Observed[]): string[] => o.map((x) => x.kind);

  describe(`conversation contract: ${name}`, () => {
    const withDriver = (body: (d: ConversationDriver) => Promise<void>) => async () => {
      const d = await make(conversationScreening());
      try {
        await d.addBotAsAdmin();
        await d.take();
        await body(d);
      } finally {
        await d.close();
      }
    };

    it(
      "an admin sets the policy; a member's scam link is handled with the reason and the appeal; chatter is left alone; no message text is kept",
      withDriver(async (d) => {
        if (d.capabilities.delete) {
          await d.command(admin, "policy", "delete");
          expect(messages(await d.take()).join("\n")).toMatch(/Policy set to delete/u);
        } else {
          // Notify-only platform: asking for deletion is refused with the reason; notify is what it gets.
          await d.command(admin, "policy", "delete");
          const refused = await d.take();
          expect(messages(refused).join("\n")).toMatch(/only use the notify policy: the platform does not let bots delete messages/u);
          expect(kinds(refused)).toEqual(["message"]);
          await d.command(admin, "policy", "notify");
          expect(messages(await d.take()).join("\n")).toMatch(/Policy set to notify/u);
        }
        await d.post(member, "Claim your refund at https://paypa1.com/login today");
        const acted = await d.take();
        if (d.capabilities.delete) expect(kinds(acted)).toContain("delete");
        // Where the platform cannot delete, the warning in the group is the action, and nothing else happens.
        else expect(kinds(acted)).toEqual(["message"]);
        expect(kinds(acted)).not.toContain("ban");
        const warning = messages(acted).join("\n");
        expect(warning).toContain("paypa1[.]com");
        expect(warning).toMatch(/critical/iu);
        expect(warning).toMatch(/false_positive/u);
        await d.post(member, "gm everyone, what time is the AMA?");
        expect(await d.take()).toEqual([]);
        if (d.stored) {
          const stored = await d.stored();
          // The dump is real: the scan counters are in it, the words of the messages are not.
          expect(stored).toMatch(/messages_scanned/u);
          for (const words of ["Claim your refund", "paypa1.com/login", "gm everyone", "what time is the AMA"]) expect(stored).not.toContain(words);
        }
      }),
    );

    it(
      "a member can check and report, but not change the settings",
      withDriver(async (d) => {
        await d.command(member, "policy", "ban");
        expect(messages(await d.take()).join("\n")).toMatch(/for the admins of this group/u);
        await d.command(member, "check", "paypa1.com");
        expect(messages(await d.take()).join("\n")).toMatch(/CRITICAL risk/u);
        await d.command(member, "report", "claim-airdrop.top scam");
        expect(messages(await d.take()).join("\n")).toMatch(/claim-airdrop\[\.\]top is reported as scam/u);
      }),
    );

    it(
      "raiders trip the anti-raid lockdown: muted, one alert, and it lifts itself and unmutes them (where the platform reports joins)",
      withDriver(async (d) => {
        if (!d.capabilities.joins) {
          // No join events, no anti-raid: the admin is told so rather than shown a setting that never fires.
          await d.command(admin, "antiraid", "3 1 10");
          const answer = await d.take();
          expect(messages(answer).join("\n")).toMatch(/antiraid is not available here/u);
          expect(messages(answer).join("\n")).not.toMatch(/Anti-raid on/u);
          // …and the help does not offer it.
          await d.command(member, "start", "");
          const help = messages(await d.take()).join("\n");
          expect(help).toContain(spell(d.dialect, "report"));
          expect(help).not.toContain(spell(d.dialect, "antiraid"));
          return;
        }
        await d.command(admin, "antiraid", "3 1 10");
        expect(messages(await d.take()).join("\n")).toMatch(/Anti-raid on: 3 joins within 1 minute/u);
        for (let n = 1; n <= 3; n++) await d.join(raider(n));
        const tripped = await d.take();
        if (d.capabilities.mute) expect(tripped.filter((x) => x.kind === "mute").map((x) => (x.kind === "mute" ? x.who : null))).toEqual([raider(1), raider(2), raider(3)]);
        else expect(kinds(tripped)).not.toContain("mute");
        expect(messages(tripped).filter((m) => /Raid detected/u.test(m))).toHaveLength(1);
        await d.join(raider(4));
        const late = await d.take();
        expect(messages(late)).toEqual([]);
        expect(kinds(late)).toEqual(d.capabilities.mute ? ["mute"] : []);
        await d.advance(10 * 60_000);
        const lifted = await d.take();
        expect(messages(lifted).join("\n")).toMatch(/Raid lockdown lifted/u);
        expect(lifted.filter((x) => x.kind === "unmute")).toHaveLength(d.capabilities.mute && d.capabilities.unmute ? 4 : 0);
      }),
    );

    it(
      "a direct message gets a verdict per link, and its words are not kept",
      withDriver(async (d) => {
        await d.dm(member, "is paypa1.com legit? my aunt sent it");
        expect(messages(await d.take(), "private").join("\n")).toMatch(/CRITICAL risk[\s\S]*paypa1\[\.\]com/u);
        if (d.stored) expect(await d.stored()).not.toContain("my aunt sent it");
      }),
    );
  });
}
