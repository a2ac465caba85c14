import { describe, expect, it } from "vitest";
import { forwardedFrom, scanText } from "./message-text.js";

describe("scanText", () => {
  it.each([
    [{ text: "plain paypa1.com" }, "plain paypa1.com"],
    [{ text: "Go to PayPal now", entities: [{ type: "text_link" as const, offset: 6, length: 6, url: "https://evil.top" }] }, "Go to [PayPal](https://evil.top) now"],
    [{ text: "[a] b", entities: [{ type: "text_link" as const, offset: 0, length: 3, url: "https://x.io" }] }, "[ a ](https://x.io) b"],
    [{ caption: "pic x.io", caption_entities: [{ type: "text_link" as const, offset: 4, length: 4, url: "https://y.io" }] }, "pic [x.io](https://y.io)"],
    [{ text: "🚀 A B", entities: [{ type: "text_link" as const, offset: 3, length: 1, url: "https://u.io" }, { type: "text_link" as const, offset: 5, length: 1, url: "https://v.io" }] }, "🚀 [A](https://u.io) [B](https://v.io)"],
    [{}, ""],
  ])("%j", (m, expected) => {
    expect(scanText(m)).toBe(expected);
  });

  it("reads forward origins", () => {
    expect(forwardedFrom({ forward_origin: { type: "hidden_user", date: 0, sender_user_name: "Support" } })).toEqual({ name: "Support" });
    expect(forwardedFrom({ forward_origin: { type: "user", date: 0, sender_user: { id: 1, is_bot: false, first_name: "A", last_name: "B", username: "ab" } } })).toEqual({ name: "A B", username: "ab" });
    expect(forwardedFrom({ forward_origin: { type: "channel", date: 0, message_id: 1, chat: { id: -1, type: "channel", title: "News" } } })).toEqual({ name: "News" });
    expect(forwardedFrom({})).toBeNull();
  });
});
