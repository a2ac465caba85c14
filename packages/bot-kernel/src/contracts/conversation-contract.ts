import type { CommandName, Dialect } from "../commands.js";
import { InMemoryScreening } from "../in-memory-screening.js";
import type { TestApi } from "./fixture.js";

/**
 * The conversation contract: one scripted admin/member/raider conversation that every platform
 * adapter runs through its own wire format, so the bots behave alike everywhere. A platform
 * plugs in with a small `ConversationDriver` that turns the script's steps into platform
 * events (updates, gateway events, webhooks) and the platform's outgoing calls back into
 * `Observed` actions. See docs/bots/kernel.md.
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

export interface ConversationDriver {
  /** How the platform spells commands. */
  readonly dialect: Dialect;
  /** What bots may do on the platform: the script expects only these actions. */
  readonly can: { readonly delete: boolean; readonly ban: boolean; readonly mute: boolean; readonly unmute: boolean };
  /** The bot is made an admin of the group with every right it asks for. */
  addBotAsAdmin(): Promise<void>;
  /** A plain message in the group (plain text; the platform's own formatting is the driver's business). */
  post(from: Person, text: string): Promise<void>;
  /** A command in the group, spelled and delivered the platform's way (text, slash command, interaction). */
  command(from: Person, name: CommandName, args: string): Promise<void>;
  /** A direct message to the bot. */
  dm(from: Person, text: string): Promise<void>;
  join(who: Person): Promise<void>;
  /** Moves the bot's clock on and runs its timer (lockdowns lift, learning ends). */
  advance(ms: number): Promise<void>;
  /** Everything the bot did since the last call, oldest first; message texts as plain text. */
  take(): Promise<readonly Observed[]>;
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
      "an admin sets the policy; a member's scam link is handled with the reason and the appeal; chatter is left alone",
      withDriver(async (d) => {
        await d.command(admin, "policy", d.can.delete ? "delete" : "notify");
        expect(messages(await d.take()).join("\n")).toMatch(/Policy set to (delete|notify)/u);
        await d.post(member, "Claim your refund at https://paypa1.com/login today");
        const acted = await d.take();
        if (d.can.delete) expect(kinds(acted)).toContain("delete");
        expect(kinds(acted)).not.toContain("ban");
        const warning = messages(acted).join("\n");
        expect(warning).toContain("paypa1[.]com");
        expect(warning).toMatch(/critical/iu);
        expect(warning).toMatch(/false_positive/u);
        await d.post(member, "gm everyone, what time is the AMA?");
        expect(await d.take()).toEqual([]);
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
      "raiders trip the anti-raid lockdown: muted, one alert, and it lifts itself and unmutes them",
      withDriver(async (d) => {
        await d.command(admin, "antiraid", "3 1 10");
        expect(messages(await d.take()).join("\n")).toMatch(/Anti-raid on: 3 joins within 1 minute/u);
        for (let n = 1; n <= 3; n++) await d.join(raider(n));
        const tripped = await d.take();
        if (d.can.mute) expect(tripped.filter((x) => x.kind === "mute").map((x) => (x.kind === "mute" ? x.who : null))).toEqual([raider(1), raider(2), raider(3)]);
        expect(messages(tripped).filter((m) => /Raid detected/u.test(m))).toHaveLength(1);
        await d.join(raider(4));
        const late = await d.take();
        expect(messages(late)).toEqual([]);
        if (d.can.mute) expect(kinds(late)).toEqual(["mute"]);
        await d.advance(10 * 60_000);
        const lifted = await d.take();
        expect(messages(lifted).join("\n")).toMatch(/Raid lockdown lifted/u);
        if (d.can.unmute) expect(lifted.filter((x) => x.kind === "unmute")).toHaveLength(4);
      }),
    );

    it(
      "a direct message gets a verdict per link",
      withDriver(async (d) => {
        await d.dm(member, "is paypa1.com legit?");
        expect(messages(await d.take(), "private").join("\n")).toMatch(/CRITICAL risk[\s\S]*paypa1\[\.\]com/u);
      }),
    );
  });
}
