import { describe, expect, it } from "vitest";
import type { Verdict } from "../detection/types.js";
import { createScreener } from "../screener.js";
import { MAX_REDIRECT_DEPTH } from "./screen-entity.js";

const clock = { now: () => new Date("2026-11-01T12:00:00Z") };
let n = 0;
const ids = { next: (p: string) => `${p}_${String(++n).padStart(6, "0")}` };
const screener = createScreener({ clock, ids, intel: [{ type: "domain", value: "known-drainer.example.com", list: "block", label: "wallet drainer", source: "test-feed" }] });
// The same, with a report source: screening takes the path with promises and deadlines.
const asyncScreener = createScreener({ clock, ids, deps: { reports: { forEntity: async () => null } } });

const screenWith = async (s: typeof screener, v: string): Promise<Verdict> => {
  const r = await s.screen(v);
  if (!r.ok) throw new Error(`${v}: ${r.error.code} ${r.error.message}`);
  return r.verdict;
};
const screen = (v: string): Promise<Verdict> => screenWith(screener, v);
const codes = (v: Verdict): string[] => v.signals.map((s) => s.code);
const allowedHigh = (v: Verdict): boolean => v.recommended_action === "allow" && v.confidence === "high";

describe("open redirectors are unwrapped and their target screened", () => {
  it.each([
    ["https://www.google.com/url?q=https://paypa1.com/login", "https://paypa1.com/login"],
    ["https://l.facebook.com/l.php?u=https%3A%2F%2Fpaypa1.com%2F", "https://paypa1.com/"],
    ["https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fpaypa1.com%2F&data=05", "https://paypa1.com/"],
    ["https://www.youtube.com/redirect?q=https%3A%2F%2Fpaypa1.com%2F", "https://paypa1.com/"],
  ])("%s is at least as risky as %s, and shows the target's signals", async (wrapper, target) => {
    const [w, t] = [await screen(wrapper), await screen(target)];
    expect(allowedHigh(w)).toBe(false);
    expect(w.risk_score).toBeGreaterThanOrEqual(t.risk_score);
    expect(codes(w)).toContain("url.redirect_target");
    expect(codes(w)).not.toContain("intel.allowlisted");
    for (const c of codes(t)) expect(codes(w)).toContain(c);
    const lookalike = w.signals.find((s) => s.code === "domain.lookalike_brand");
    expect(lookalike?.message).toMatch(/^Where it leads \(paypa1\.com\)/);
    expect(lookalike?.evidence.via).toBe(t.entity.value);
  });

  it("a blocklisted target makes the wrapper critical", async () => {
    const v = await screen("https://www.google.com/url?q=https%3A%2F%2Fknown-drainer.example.com%2F");
    expect(v.risk_level).toBe("critical");
    expect(codes(v).some((c) => c.startsWith("intel.blocklisted"))).toBe(true);
  });

  it("an official target keeps the wrapper low", async () => {
    const v = await screen("https://www.google.com/url?q=https://www.paypal.com/signin");
    expect(v.risk_level).toBe("low");
    expect(codes(v)).toContain("intel.allowlisted");
  });

  it("nested redirectors are followed, up to a bound", async () => {
    const inner = `https://l.facebook.com/l.php?u=${encodeURIComponent("https://paypa1.com/")}`;
    const v = await screen(`https://www.google.com/url?q=${encodeURIComponent(inner)}`);
    expect(codes(v).filter((c) => c === "url.redirect_target")).toHaveLength(2);
    expect(codes(v)).toContain("domain.lookalike_brand");

    let deep = "https://paypa1.com/";
    for (let i = 0; i <= MAX_REDIRECT_DEPTH; i++) deep = `https://www.google.com/url?q=${encodeURIComponent(deep)}`;
    const d = await screen(deep);
    expect(codes(d)).toContain("url.redirect_too_deep");
    expect(codes(d)).not.toContain("domain.lookalike_brand");
    expect(d.risk_score).toBeGreaterThan(0);
  });

  it("a target that is no web address is said so, and not vouched for", async () => {
    const v = await screen("https://www.google.com/url?q=javascript:alert(1)");
    expect(codes(v)).toContain("url.redirect_unreadable");
    expect(codes(v)).not.toContain("intel.allowlisted");
    expect(v.confidence).not.toBe("high");
  });

  it("t.co is a shortener that cannot be followed offline, and says so", async () => {
    const v = await screen("https://t.co/abc123");
    const s = v.signals.find((x) => x.code === "url.shortener");
    expect(s?.message).toMatch(/cannot be followed/);
    expect(s?.message).toMatch(/Twitter/);
    expect(s?.evidence.destination_checked).toBe(false);
  });
});

describe("profile URLs are screened as the social account", () => {
  it.each([
    ["https://x.com/paypal_support", "x:@paypal_support"],
    ["https://twitter.com/binance_help", "x:@binance_help"],
    ["https://www.instagram.com/metamask.support/", "instagram:metamask.support"],
    ["https://t.me/binance_support", "telegram:@binance_support"],
    ["https://www.tiktok.com/@coinbase_support", "tiktok:@coinbase_support"],
    ["https://www.youtube.com/@binance_live247", "youtube:@binance_live247"],
  ])("%s scores as %s", async (profile, account) => {
    const [p, a] = [await screen(profile), await screen(account)];
    expect(a.risk_score).toBeGreaterThan(30);
    expect(p.risk_score).toBe(a.risk_score);
    expect(p.risk_level).toBe(a.risk_level);
    expect(p.confidence).toBe(a.confidence);
    expect(codes(p)).toContain("url.social_profile");
    for (const c of codes(a)) expect(codes(p)).toContain(c);
  });

  it("the same on the path with promises and deadlines", async () => {
    const [p, a] = [await screenWith(asyncScreener, "https://x.com/paypal_support"), await screenWith(asyncScreener, "x:@paypal_support")];
    expect(p.risk_score).toBe(a.risk_score);
    expect(p.risk_score).toBeGreaterThan(30);
  });

  it("an official account's profile stays allowed; the platform's own pages too", async () => {
    const official = await screen("https://x.com/paypal");
    expect(official.recommended_action).toBe("allow");
    expect(codes(official)).toContain("social.official_handle");
    for (const page of ["https://x.com/home", "https://x.com/settings", "https://github.com/pricing"]) {
      const v = await screen(page);
      expect(allowedHigh(v), page).toBe(true);
      expect(codes(v)).not.toContain("url.social_profile");
    }
  });
});

describe("user-content paths are judged on their own address", () => {
  it.each([
    ["https://sites.google.com/view/paypal-verify-account", "url.content_brand"],
    ["https://www.dropbox.com/s/abc123/metamask-seed-recovery.html?dl=0", "url.content_brand"],
    ["https://ipfs.io/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/wallet-connect.html", "url.content_wallet_lure"],
    ["https://cloudflare-ipfs.com/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/metamask-restore.html", "url.content_brand"],
    ["https://docs.google.com/forms/d/e/1FAIpQLSf/coinbase-wallet-verification", "url.content_brand"],
  ])("%s is flagged by %s, not allowed by inheritance", async (value, code) => {
    const v = await screen(value);
    expect(allowedHigh(v)).toBe(false);
    expect(v.recommended_action).not.toBe("allow");
    expect(codes(v)).toContain(code);
    expect(codes(v)).toContain("url.user_content");
    expect(codes(v)).not.toContain("intel.allowlisted");
    // Only the address could be judged: never "high" confidence.
    expect(v.confidence).not.toBe("high");
  });

  it("a user's file with a harmless path is allowed, with low confidence rather than the platform's", async () => {
    const v = await screen("https://drive.google.com/file/d/1AbCdEfGhIjK/view");
    expect(v.recommended_action).toBe("allow");
    expect(v.confidence).toBe("low");
    expect(codes(v)).toContain("url.user_content");
    expect(codes(v)).not.toContain("intel.allowlisted");
  });

  it("the platform's own brand named alone on its platform, or a brand without a lure, weighs little", async () => {
    expect(codes(await screen("https://sites.google.com/view/google-fan-club"))).not.toContain("url.content_brand");
    const alone = await screen("https://sites.google.com/view/paypal");
    expect(alone.signals.find((s) => s.code === "url.content_brand")?.points).toBeLessThan(40);
  });

  it.each(["https://www.google.com/search?q=x", "https://www.dropbox.com/pricing", "https://x.com/home", "https://docs.google.com/"])("%s, the operator's own page, stays allowed with high confidence", async (value) => {
    const v = await screen(value);
    expect(allowedHigh(v)).toBe(true);
    expect(codes(v)).toContain("intel.allowlisted");
  });

  it("a brand in the path of a user's free-hosted site counts too", async () => {
    expect(codes(await screen("https://someone.github.io/paypal-login/"))).toContain("url.content_brand");
  });
});

describe("brands' own short domains", () => {
  it.each(["forms.gle", "https://forms.gle/abc123", "https://t.co/abc", "amzn.to", "https://youtu.be/xyz"])("%s is not a cheap-TLD finding", async (value) => {
    const v = await screen(value);
    expect(codes(v)).not.toContain("domain.new_gtld");
    expect(codes(v)).not.toContain("domain.suspicious_tld");
  });

  it("forms.gle is recognised as Google's short domain; an unknown name on the same TLD is not", async () => {
    const s = (await screen("forms.gle")).signals.find((x) => x.code === "domain.brand_short_domain");
    expect(s?.message).toMatch(/Google/);
    expect(s?.source.name).toBe("platform-paths");
    expect(s?.source.version).not.toBe("unknown");
    expect(codes(await screen("paypal-forms.gle"))).not.toContain("domain.brand_short_domain");
    expect(codes(await screen("some-shop.app"))).toContain("domain.new_gtld");
  });
});

describe("verdicts do not depend on order or history", () => {
  it("screening the same URLs in another order gives the same verdicts", async () => {
    const values = ["https://www.google.com/url?q=https://paypa1.com/login", "https://x.com/paypal_support", "https://sites.google.com/view/paypal-verify-account", "paypa1.com", "x:@paypal_support"];
    const strip = (v: Verdict) => ({ ...v, id: "" });
    const forward = await Promise.all(values.map((v) => screen(v).then(strip)));
    const backward = (await Promise.all([...values].reverse().map((v) => screen(v).then(strip)))).reverse();
    expect(backward).toEqual(forward);
  });
});
