import { describe, expect, it } from "vitest";
import { renderReply } from "./render.js";

describe("renderReply", () => {
  it("escapes user-controlled text and disables previews", () => {
    const r = renderReply({ blocks: [{ type: "heading", text: "<script>" }, { type: "list", items: ["a & b"] }, { type: "code", text: "x<y" }, { type: "note", text: "n" }], buttons: [{ label: "Add", url: "https://t.me/svc_bot?startgroup=true" }] });
    expect(r.text).toBe("<b>&lt;script&gt;</b>\n• a &amp; b\n<code>x&lt;y</code>\n<i>n</i>");
    expect(r.link_preview_options).toEqual({ is_disabled: true });
    expect(r.reply_markup).toEqual({ inline_keyboard: [[{ text: "Add", url: "https://t.me/svc_bot?startgroup=true" }]] });
  });

  it("cuts long replies without breaking tags", () => {
    const r = renderReply({ blocks: [{ type: "code", text: "x".repeat(5000) }] });
    expect(r.text.length).toBeLessThanOrEqual(4010);
    expect(r.text.endsWith("…</code>")).toBe(true);
  });
});
