import { describe, expect, it } from "vitest";
import { InMemorySupportDesk } from "../in-memory-support-desk.js";
import { supportFeature } from "./support.js";
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
});
