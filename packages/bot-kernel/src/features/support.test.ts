import { describe, expect, it } from "vitest";
import { InMemorySupportDesk } from "../in-memory-support-desk.js";
import { SUPPORT_MAX_ATTEMPTS, supportFeature } from "./support.js";
import { featureKit } from "./test-kit.js";

describe("support feature", () => {
  it("opens a ticket with the user's words and answers its id; without words it explains", async () => {
    const t = featureKit();
    const support = new InMemorySupportDesk();
    const f = supportFeature(t.services, { support });
    const r = await t.run({ id: "5", name: "Mallory" }, "5");
    await f.commands?.support?.(r, { name: "support", topic: "payments", text: "" });
    expect(support.tickets).toEqual([]);
    await f.commands?.support?.(r, { name: "support", topic: "payments", text: "charged twice" });
    expect(support.tickets).toEqual([expect.objectContaining({ platform: "test", chatId: "5", userId: "5", topic: "payments", text: "charged twice" })]);
    expect(r.replies).toEqual([expect.stringMatching(/Describe the problem/u), expect.stringMatching(/^Ticket \S+ opened/u)]);
  });

  it("delivers an operator's answer to the chat the ticket came from, once, and only its own platform's", async () => {
    const t = featureKit();
    const support = new InMemorySupportDesk();
    const f = supportFeature(t.services, { support });
    const { id } = await support.open({ platform: "test", chatId: "5", userId: "5", topic: "general", text: "my link was deleted", openedAt: t.clock.now().toISOString() });
    const other = await support.open({ platform: "elsewhere", chatId: "9", userId: "9", topic: "general", text: "hi", openedAt: t.clock.now().toISOString() });
    await support.reply(id, "We restored your link; sorry about that.", "acc_admin", t.clock.now());
    await support.reply(other.id, "Not for this bot", "acc_admin", t.clock.now());
    await f.tick?.(t.clock.now());
    await f.tick?.(t.clock.now());
    const sent = t.chat.calls.filter((c) => c.op === "send");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ chatId: "5" });
    expect(t.chat.texts().join("\n")).toContain(`ticket ${id}`);
    expect(t.chat.texts().join("\n")).toContain("We restored your link; sorry about that.");
    expect((await support.get(id))?.replies[0]).toMatchObject({ delivery: "delivered", attempts: 1 });
    expect((await support.get(other.id))?.replies[0]).toMatchObject({ delivery: "pending", attempts: 0 });
  });

  it("retries an answer the chat refused, then gives up and keeps the error for the operator", async () => {
    const t = featureKit();
    const support = new InMemorySupportDesk();
    const f = supportFeature(t.services, { support });
    const { id } = await support.open({ platform: "test", chatId: "5", userId: "5", topic: "general", text: "help", openedAt: t.clock.now().toISOString() });
    await support.reply(id, "Here is the answer", "acc_admin", t.clock.now());
    t.chat.send = async () => {
      throw new Error("Forbidden: bot was blocked by the user");
    };
    for (let i = 0; i < SUPPORT_MAX_ATTEMPTS + 2; i++) await f.tick?.(t.clock.now());
    expect((await support.get(id))?.replies[0]).toMatchObject({ delivery: "failed", attempts: SUPPORT_MAX_ATTEMPTS, lastError: "Forbidden: bot was blocked by the user" });
  });
});
