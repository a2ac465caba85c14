import { code, heading, list, note, reply, text } from "@svc/bot-kernel";
import { describe, expect, it } from "vitest";
import { renderReply } from "./render.js";

describe("renderReply", () => {
  it("shows user-controlled markdown, mentions and masked links literally", () => {
    const r = renderReply(reply(text("**Alice** <@123> @everyone [support](https://evil.top) `x`")));
    expect(r.content).toBe("\\*\\*Alice\\*\\* \\<\\@123\\> \\@everyone [support]\\(https://evil.top) \\`x\\`");
    expect(r.allowedMentions).toEqual({ parse: [] });
  });

  it("keeps defanged entities readable and code spans closed", () => {
    const r = renderReply(reply(heading("🔴 CRITICAL"), code("hxxps://paypa1[.]com/`x"), list(["paypa1[.]com: looks like paypal.com"]), note("Appeal with /report")));
    expect(r.content).toBe("**🔴 CRITICAL**\n`hxxps://paypa1[.]com/ˋx`\n• paypa1[.]com: looks like paypal.com\n-# Appeal with /report");
    expect(r.flags & 4).toBe(4);
  });

  it("stays under Discord's 2000 characters without ending inside a code span", () => {
    const r = renderReply(reply(text("a".repeat(1890)), code("b".repeat(200))));
    expect(r.content.length).toBeLessThanOrEqual(2000);
    expect((r.content.split("`").length - 1) % 2).toBe(0);
  });
});
