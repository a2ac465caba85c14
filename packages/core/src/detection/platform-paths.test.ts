import { platformPaths } from "@svc/intel";
import { describe, expect, it } from "vitest";
import { parseEntity } from "../entities/parse-entity.js";
import type { Entity } from "../entities/types.js";
import { buildPlatformTable, readPlatformUrl } from "./platform-paths.js";

const table = buildPlatformTable(platformPaths);
const url = (v: string): Entity => {
  const r = parseEntity(v, { type: "url" });
  if (!r.ok) throw new Error(`${v}: ${r.error.message}`);
  return r.entity;
};
const read = (v: string, freeHost: string | null = null) => readPlatformUrl(url(v), table, freeHost);

describe("open redirectors: the target parameter is read, decoded once", () => {
  it.each([
    ["https://www.google.com/url?q=https://paypa1.com/login", "www.google.com", "q", "https://paypa1.com/login"],
    ["https://www.google.co.uk/url?sa=t&url=https%3A%2F%2Fpaypa1.com%2F", "www.google.co.uk", "url", "https://paypa1.com/"],
    ["https://l.facebook.com/l.php?u=https%3A%2F%2Fpaypa1.com%2F&h=AT0", "l.facebook.com", "u", "https://paypa1.com/"],
    ["https://lm.facebook.com/l.php?u=https%3A%2F%2Fpaypa1.com%2F", "lm.facebook.com", "u", "https://paypa1.com/"],
    ["https://l.instagram.com/?u=https%3A%2F%2Fevil.example%2F&e=x", "l.instagram.com", "u", "https://evil.example/"],
    ["https://www.youtube.com/redirect?event=video_description&q=https%3A%2F%2Fevil.example", "www.youtube.com", "q", "https://evil.example"],
    ["https://slack-redir.net/link?url=https%3A%2F%2Fevil.example", "slack-redir.net", "url", "https://evil.example"],
    ["https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fevil.example%2F&data=05", "nam02.safelinks.protection.outlook.com", "url", "https://evil.example/"],
    ["https://www.linkedin.com/redir/redirect?url=https%3A%2F%2Fevil.example", "www.linkedin.com", "url", "https://evil.example"],
  ])("%s → %s ? %s = %s", (value, redirector, param, target) => {
    expect(read(value)).toEqual({ kind: "redirect", redirector, param, target });
  });

  it("a redirector path without its target, or another path of the platform, is the platform's own page", () => {
    expect(read("https://www.google.com/url")).toBeNull();
    expect(read("https://www.google.com/url?sa=t")).toBeNull();
    expect(read("https://www.google.com/search?q=https://paypa1.com")).toBeNull();
    expect(read("https://www.linkedin.com/feed/?url=https://evil.example")).toBeNull();
    // A look-alike of a redirector's host is not that redirector.
    expect(read("https://l.faceb00k.com/l.php?u=https%3A%2F%2Fevil.example")).toBeNull();
    expect(read("https://safelinks.protection.outlook.com.evil-site.net/?url=https%3A%2F%2Fx.example")).toBeNull();
  });
});

describe("profiles: the platforms' own path grammar (entities/social.ts)", () => {
  it.each([
    ["https://x.com/paypal_support", "x:@paypal_support"],
    ["https://twitter.com/PayPal_Support/status/123", "x:@paypal_support"],
    ["https://www.instagram.com/binance.help/", "instagram:binance.help"],
    ["https://t.me/binance_support", "telegram:@binance_support"],
    ["https://www.facebook.com/paypal.support", "facebook:paypal.support"],
    ["https://www.tiktok.com/@binance_official", "tiktok:@binance_official"],
    ["https://www.youtube.com/@binance_live", "youtube:@binance_live"],
    ["https://github.com/metamask-support", "github:metamask-support"],
  ])("%s is the account %s", (value, account) => {
    expect(read(value)).toEqual({ kind: "profile", account });
  });

  it.each(["https://x.com/home", "https://x.com/settings/account", "https://x.com/i/flow/login", "https://www.instagram.com/explore/", "https://github.com/pricing", "https://www.facebook.com/groups/123"])("%s is a page of the platform, not a profile", (value) => {
    expect(read(value)).toBeNull();
  });
});

describe("user-content paths", () => {
  it.each([
    ["https://sites.google.com/view/paypal-verify-account", "sites.google.com"],
    ["https://docs.google.com/forms/d/e/1FAIpQLSf/viewform", "docs.google.com"],
    ["https://drive.google.com/file/d/1abc/view", "drive.google.com"],
    ["https://forms.gle/abc123", "forms.gle"],
    ["https://www.dropbox.com/s/abc123/metamask-seed-recovery.html?dl=0", "www.dropbox.com"],
    ["https://onedrive.live.com/?cid=abc", "onedrive.live.com"],
    ["https://gist.github.com/someone/abc", "gist.github.com"],
    ["https://raw.githubusercontent.com/someone/repo/main/index.html", "raw.githubusercontent.com"],
    ["https://ipfs.io/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/wallet-connect.html", "ipfs.io"],
    ["https://cloudflare-ipfs.com/ipns/example.eth/", "cloudflare-ipfs.com"],
  ])("%s is user content on %s", (value, platform) => {
    expect(read(value)).toMatchObject({ kind: "user_content", platform, listed: true });
  });

  it.each(["https://www.dropbox.com/pricing", "https://www.dropbox.com/", "https://docs.google.com/", "https://ipfs.io/", "https://ipfs.io/docs/", "https://www.google.com/search?q=x"])("%s is the platform's own page", (value) => {
    expect(read(value)).toBeNull();
  });

  it("a user's site on a free host is user content as a whole, not listed (the host finding says so already)", () => {
    expect(read("https://someone.github.io/paypal-login/", "github.io")).toEqual({ kind: "user_content", platform: "github.io", what: "a site published on github.io", listed: false });
  });

  it("plain URLs elsewhere are not read at all", () => {
    expect(read("https://example.com/s/abc/paypal-login.html")).toBeNull();
  });
});
