import { describe, expect, it } from "vitest";
import { defaultReference } from "../../screener.js";
import { lexicalFindings } from "./lexical.js";
import { entity } from "./test-helpers.js";

const ref = defaultReference();
const codes = (s: string) => lexicalFindings(entity(s), ref).map((f) => f.code).sort();

describe("lexical features", () => {
  it.each([
    ["free-gift.zip", ["domain.suspicious_tld"]],
    ["secure-login-update.com", ["domain.many_hyphens", "domain.risky_keyword"]],
    ["a.b.c.d.example.com", ["domain.deep_subdomains"]],
    ["shop12345678.com", ["domain.many_digits"]],
    ["xkqzvbnmwpltrhgf.com", ["domain.high_entropy"]],
    ["münchen.de", ["domain.punycode"]],
    ["pay\u200Bpal.com", ["entity.hidden_characters"]],
    ["http://192.0.2.10/login", ["url.ip_literal_host", "url.risky_path_keyword"]],
    ["http://0xc0.0.2.10/", ["url.ip_obfuscated"]],
    ["https://paypal.com@evil.example.net/", ["url.userinfo_brand"]],
    ["https://login.example.org@evil.example.net/", ["url.userinfo_deception"]],
    ["https://bit.ly/3xYz", ["url.shortener"]],
    ["https://example.com:8443/", ["url.nonstandard_port"]],
    ["https://example.com/wallet/connect", ["url.risky_path_keyword"]],
    ["this-is-an-extraordinarily-long-host-name-for-anyone.com", ["domain.long_name", "domain.many_hyphens"]],
  ])("%s → %j", (input, expected) => {
    expect(codes(input)).toEqual(expect.arrayContaining(expected));
  });

  it.each(["google.com", "wikipedia.org", "bbc.co.uk", "github.com", "x.com", "example.com", "mail.yahoo.co.jp", "accountant.com"])("%s has no lexical findings", (input) => {
    expect(codes(input)).toEqual([]);
  });

  it("keywords match whole parts, not substrings of other words", () => {
    expect(codes("accountant.com")).not.toContain("domain.risky_keyword");
    expect(codes("account-verify.com")).toContain("domain.risky_keyword");
  });

  it("explains the userinfo trick with the real host", () => {
    const [f] = lexicalFindings(entity("https://www.paypal.com@evil.example.net/login"), ref).filter((x) => x.code === "url.userinfo_brand");
    expect(f?.message).toContain("evil.example.net");
    expect(f?.evidence).toMatchObject({ shown: "www.paypal.com", target: "paypal.com", real_host: "evil.example.net" });
    const [g] = lexicalFindings(entity("https://secure.example.org@evil.example.net/"), ref).filter((x) => x.code === "url.userinfo_deception");
    expect(g?.evidence).toMatchObject({ shown: "secure.example.org", real_host: "evil.example.net" });
  });

  it.each([
    ["xlblogz.blogspot.com", "blogspot.com"], // a private suffix of the Public Suffix List
    ["my-page.netlify.app", "netlify.app"],
    ["claim.typeform.com", "typeform.com"], // a free host we list
    ["someone.tumblr.com", "tumblr.com"], // a brand's user-content domain
    ["https://reward.weebly.com/login", "weebly.com"],
  ])("%s is published on the free host %s", (input, platform) => {
    const f = lexicalFindings(entity(input), ref).find((x) => x.code === "domain.free_hosting");
    expect(f?.evidence).toEqual({ platform });
    expect(f?.message).toContain(platform);
  });

  it.each(["www.weebly.com", "www.blogspot.com", "www.github.io", "typeform.com", "tumblr.com", "www.tumblr.com", "mail.google.com"])("%s is the platform itself, not a user's site", (input) => {
    expect(codes(input)).not.toContain("domain.free_hosting");
  });

  it.each([
    ["binance.space", true],
    ["example.finance", true],
    ["example.app", true],
    ["example.com", false], // legacy generic TLDs
    ["example.info", false],
    ["example.de", false], // country codes
    ["example.co.uk", false],
    ["example.top", false], // on the suspicious list: that finding, not this one
  ])("%s is on a new generic TLD: %s", (input, expected) => {
    expect(codes(input).includes("domain.new_gtld")).toBe(expected);
  });

  it("counts digits as written, not the digits of the punycode encoding", () => {
    expect(codes("błcokchỉan.com")).not.toContain("domain.many_digits");
    expect(codes("shop12345678.com")).toContain("domain.many_digits");
  });
});
