import { describe, expect, it } from "vitest";
import { ADMIN, createHarness, MEMBER } from "./test-harness.js";

/**
 * SPEC data handling: message content in monitored chats is processed to extract entities;
 * full message content is not stored. Every store is read back after scanning and must hold
 * entity ids, names and counts, never the words around them.
 */
describe("no message content is stored", () => {
  it("after scanned messages, no store holds the message text", async () => {
    const h = createHarness();
    await h.botPromoted();
    await h.asAdmin("/learn 1");
    await h.group(MEMBER, "Confidential: my seed phrase hint is purple-otter, send to paypa1.com");
    await h.asAdmin("/learn stop");
    await h.group(MEMBER, "Private salary talk 98765 with claim-airdrop.top inside");
    await h.group(ADMIN, "Board meeting notes mention docs.python.org only");
    await h.dm(MEMBER, "my bank password is hunter2 and paypa1.com sent me this");

    const stored = JSON.stringify({
      settings: h.settings.dump(),
      stats: [...h.stats.dump()],
      members: [...h.members.dump()].map(([chat, m]) => [chat, [...m.values()]]),
      reports: h.reports.reports,
      tickets: h.support.tickets,
      payments: h.ledger.dump(),
      cache: h.app.kernel.cache.keys(),
    });
    for (const secret of ["Confidential", "purple-otter", "seed phrase", "Private salary", "98765", "Board meeting", "hunter2", "bank password"]) {
      expect(stored).not.toContain(secret);
    }
    // What is kept: entity ids, counts and member names.
    expect(stored).toContain("paypa1.com");
    expect(stored).toContain("Mallory");
    expect(stored).toMatch(/"messages_scanned":3/u);
  });
});
