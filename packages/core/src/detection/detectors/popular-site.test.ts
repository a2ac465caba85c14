import { describe, expect, it } from "vitest";
import { createScreener } from "../../screener.js";

const clock = { now: () => new Date("2026-11-01T12:00:00Z") };
const screen = async (value: string, s = createScreener({ clock })) => {
  const r = await s.screen(value);
  if (!r.ok) throw new Error(`${value}: ${r.error.code}`);
  return r;
};

describe("popular sites (decision 0051)", () => {
  it("a popular site's own name is never high: its name evidence is overridden and the score capped", async () => {
    for (const host of ["change.org", "www.change.org", "wikipedia.org"]) {
      const r = await screen(host);
      expect(r.verdict.risk_score, host).toBeLessThanOrEqual(10);
      expect(r.verdict.signals.map((s) => s.code)).toContain("domain.popular_site");
      expect(r.verdict.signals.some((s) => s.code === "coverage.nothing_known")).toBe(false);
      // The model still read the name (audit record), at 0 points.
      expect(r.signals.find((s) => s.code === "domain.model_risk")?.points ?? 0).toBe(0);
      expect(r.data_versions["popular-sites"]).toMatch(/^top-sites@\d{4}\.\d+\.\d+$/);
    }
  });

  it("a user's site on a popular hosting platform is not vouched for", async () => {
    const r = await screen("claim-airdrop-x.blogspot.com");
    expect(r.verdict.signals.map((s) => s.code)).not.toContain("domain.popular_site");
    expect(r.verdict.risk_score).toBeGreaterThanOrEqual(65);
  });

  it("a block-list entry still wins over popularity", async () => {
    const s = createScreener({ clock, intel: [{ type: "domain", value: "change.org", list: "block", label: "phishing", source: "test-feed", added_at: "2026-10-30T00:00:00Z" }] });
    const r = await screen("change.org", s);
    expect(r.verdict.risk_level).toBe("critical");
  });

  it("an allowlisted official domain needs no popularity: the allowlist says more", async () => {
    const r = await screen("paypal.com");
    expect(r.verdict.signals.map((s) => s.code)).toEqual(["intel.allowlisted"]);
  });

  it("a hosting platform's own domain is the platform's, never high: a site on it is judged by its own name (decision 0103)", async () => {
    for (const [host, platform] of [["vercel.app", "vercel.app"], ["www.vercel.app", "vercel.app"], ["github.io", "github.io"], ["webflow.io", "webflow.io"], ["pages.dev", "pages.dev"], ["notion.site", "notion.site"], ["weebly.com", "weebly.com"], ["www.weebly.com", "weebly.com"]] as const) {
      const r = await screen(host);
      expect(r.verdict.risk_score, host).toBeLessThanOrEqual(10);
      const signal = r.verdict.signals.find((s) => s.code === "domain.hosting_platform");
      expect(signal?.message, host).toContain(`${platform} is the hosting platform's own domain`);
      expect(r.verdict.signals.some((s) => s.code === "coverage.nothing_known")).toBe(false);
    }
    for (const host of ["claim-airdrop-x.vercel.app", "metamask-claim.weebly.com"]) {
      const r = await screen(host);
      expect(r.verdict.signals.map((s) => s.code), host).not.toContain("domain.hosting_platform");
      expect(r.verdict.risk_score, host).toBeGreaterThanOrEqual(65);
    }
    const listed = createScreener({ clock, intel: [{ type: "domain", value: "vercel.app", list: "block", label: "phishing", source: "test-feed", added_at: "2026-10-30T00:00:00Z" }] });
    expect((await screen("vercel.app", listed)).verdict.risk_level).toBe("critical");
  });

  it("an ordinary name is not popular", async () => {
    const r = await screen("elm-street-bakery.com");
    expect(r.verdict.signals.map((s) => s.code)).not.toContain("domain.popular_site");
  });
});
