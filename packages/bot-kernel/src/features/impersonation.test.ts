import { describe, expect, it } from "vitest";
import { InMemoryMemberDirectory } from "../in-memory-member-directory.js";
import { impersonationFeature } from "./impersonation.js";
import { featureKit } from "./test-kit.js";

describe("impersonation feature", () => {
  const lookalike = { id: "66", name: "\u0410lice W\u0430lker", username: "alice_support" };

  it("alerts on a look-alike joiner only while monitoring, and /audit and /verify name them", async () => {
    const t = featureKit();
    const members = new InMemoryMemberDirectory();
    const f = impersonationFeature(t.services, { members });
    const off = await t.services.settingsFor(t.group);
    await f.onJoin?.({ chatId: t.group, user: lookalike }, off, { bunched: false });
    expect(t.chat.texts()).toEqual([]);
    const on = await t.services.save({ ...off, monitoring: true });
    await f.onJoin?.({ chatId: t.group, user: lookalike }, on, { bunched: false });
    expect(t.chat.texts()[0]).toMatch(/Possible admin impersonator/u);
    await members.remember(t.group, lookalike, t.clock.now());
    const r = await t.run({ id: "1", name: "Alice" });
    await f.commands?.audit?.(r, { name: "audit" });
    await f.commands?.verify?.(r, { name: "verify", user: { kind: "username", username: "alice_support" } });
    expect(r.replies[0]).toMatch(/\[id 66\] name looks identical to admin Alice Walker/u);
    expect(r.replies[1]).toMatch(/NOT an admin/u);
  });
});
