import { describe, expect, it } from "vitest";
import { parseEntity } from "./parse-entity.js";
import type { EntityErrorCode, EntityType } from "./types.js";

type Ok = readonly [input: string, type: EntityType, value: string];
type Bad = readonly [input: string, code: EntityErrorCode];

const expectOk = ([input, type, value]: Ok, explicit?: EntityType) => {
  const r = parseEntity(input, explicit ? { type: explicit } : {});
  if (!r.ok) throw new Error(`${JSON.stringify(input)} → ${r.error.code}: ${r.error.message}`);
  expect(r.entity.type).toBe(type);
  expect(r.entity.value).toBe(value);
  expect(r.entity.id).toBe(`${type}:${value}`);
  expect(r.entity.input).toBe(input);
  return r.entity;
};
const expectBad = ([input, code]: Bad, explicit?: EntityType) => {
  const r = parseEntity(input, explicit ? { type: explicit } : {});
  expect(r.ok, `${JSON.stringify(input)} should fail with ${code}`).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toBe(code);
    expect(r.error.message.length).toBeGreaterThan(10);
  }
};

describe("domains", () => {
  const ok: Ok[] = [
    ["example.com", "domain", "example.com"],
    ["EXAMPLE.COM", "domain", "example.com"],
    ["  example.com  ", "domain", "example.com"],
    ["example.com.", "domain", "example.com"],
    ["www.example.com", "domain", "www.example.com"],
    ["paypa1.com", "domain", "paypa1.com"],
    ["sub.domain.example.co.uk", "domain", "sub.domain.example.co.uk"],
    ["bbc.co.uk", "domain", "bbc.co.uk"],
    ["münchen.de", "domain", "xn--mnchen-3ya.de"],
    ["MÜNCHEN.DE", "domain", "xn--mnchen-3ya.de"],
    ["xn--mnchen-3ya.de", "domain", "xn--mnchen-3ya.de"],
    ["аpple.com", "domain", "xn--pple-43d.com"],
    ["xn--pple-43d.com", "domain", "xn--pple-43d.com"],
    ["faß.de", "domain", "xn--fa-hia.de"],
    ["例え.jp", "domain", "xn--r8jz45g.jp"],
    ["bücher.de", "domain", "xn--bcher-kva.de"],
    ["ＰＡＹＰＡＬ．ｃｏｍ", "domain", "paypal.com"],
    ["metamask-io.claim-airdrop.xyz", "domain", "metamask-io.claim-airdrop.xyz"],
    ["google.com-secure-login.top", "domain", "google.com-secure-login.top"],
    ["my-site.github.io", "domain", "my-site.github.io"],
    ["a.b.c.d.e.f.example.org", "domain", "a.b.c.d.e.f.example.org"],
    ["123.com", "domain", "123.com"],
    ["1-800-flowers.com", "domain", "1-800-flowers.com"],
    ["x.com", "domain", "x.com"],
    ["t.me", "domain", "t.me"],
    ["foo.zip", "domain", "foo.zip"],
    ["example.xn--p1ai", "domain", "example.xn--p1ai"],
    ["пример.рф", "domain", "xn--e1afmkfd.xn--p1ai"],
    ["_dmarc.example.com", "domain", "_dmarc.example.com"],
    ["bucket.s3.amazonaws.com", "domain", "bucket.s3.amazonaws.com"],
    ["pay\u200Bpal.com", "domain", "paypal.com"],
    ["paypal[.]com", "domain", "paypal.com"],
    ["paypal(dot)com", "domain", "paypal.com"],
    ["paypal [.] com", "domain", "paypal.com"],
    ["a".repeat(63) + ".com", "domain", "a".repeat(63) + ".com"],
  ];
  it.each(ok)("%s → %s %s", (...c) => void expectOk(c));

  const bad: Bad[] = [
    ["", "entity.empty"],
    ["   ", "entity.empty"],
    ["\u200B", "entity.empty"],
    ["a..b.com", "entity.invalid"],
    ["-paypal.com", "entity.invalid"],
    ["paypal-.com", "entity.invalid"],
    ["ab--cd.com", "entity.invalid"],
    ["a".repeat(64) + ".com", "entity.invalid"],
    [`${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(10)}.com`, "entity.invalid"],
    ["example.notatld", "entity.invalid"],
    ["file.txt", "entity.invalid"],
    ["co.uk", "entity.invalid"],
    ["xn--zz.com", "entity.invalid"],
    ["pay_pal.com", "entity.invalid"],
    ["localhost", "entity.unrecognized"],
    ["hello", "entity.unrecognized"],
    ["hello world.com", "entity.unrecognized"],
    ["x".repeat(5000), "entity.too_long"],
    ["exa\u0000mple.com", "entity.invalid"],
    ["exa\u0007mple.com", "entity.invalid"],
  ];
  it.each(bad)("%s → %s", (...c) => expectBad(c));

  it("describes the name", () => {
    const e = expectOk(["Login.PayPal.co.uk", "domain", "login.paypal.co.uk"]);
    expect(e.attributes).toMatchObject({ registered_domain: "paypal.co.uk", public_suffix: "co.uk", tld: "uk", subdomain: "login", idn: false, private_suffix: false, labels: 4 });
  });
  it("keeps the Unicode form of an IDN", () => {
    const e = expectOk(["аpple.com", "domain", "xn--pple-43d.com"]);
    expect(e.attributes).toMatchObject({ unicode: "аpple.com", idn: true });
  });
  it("uses private suffixes for ownership", () => {
    const e = expectOk(["evil.github.io", "domain", "evil.github.io"]);
    expect(e.attributes).toMatchObject({ registered_domain: "evil.github.io", public_suffix: "github.io", private_suffix: true });
  });
  it("reads a private suffix written alone as the platform's own site, registered under its ICANN suffix", () => {
    for (const host of ["github.io", "cloudflare-ipfs.com", "blogspot.com"]) {
      const e = expectOk([host, "domain", host]);
      expect(e.attributes).toMatchObject({ registered_domain: host, private_suffix: false, subdomain: null });
    }
    expect(expectOk(["https://cloudflare-ipfs.com/ipfs/bafy/x.html", "url", "https://cloudflare-ipfs.com/ipfs/bafy/x.html"]).attributes).toMatchObject({ host: "cloudflare-ipfs.com", registered_domain: "cloudflare-ipfs.com" });
  });
  it.each([
    ["webflow.io", "webflow", "io"],
    ["github.io", "github", "io"],
    ["vercel.app", "vercel", "app"],
    ["blogspot.com", "blogspot", "com"],
    ["Webflow.IO.", "webflow", "io"],
  ])("reads the hosting platform's own name %s under its ICANN suffix", (input, label, suffix) => {
    const e = expectOk([input, "domain", input.toLowerCase().replace(/\.$/, "")]);
    expect(e.attributes).toMatchObject({
      registered_domain: `${label}.${suffix}`,
      public_suffix: suffix,
      tld: suffix,
      private_suffix: false,
      platform_suffix: `${label}.${suffix}`,
    });
  });
  it("keeps a user's site on a platform its own registrable name", () => {
    const e = expectOk(["foo.webflow.io", "domain", "foo.webflow.io"]);
    expect(e.attributes).toMatchObject({ registered_domain: "foo.webflow.io", public_suffix: "webflow.io", subdomain: null, private_suffix: true });
    expect(e.attributes.platform_suffix).toBeUndefined();
  });
  it("reads a platform's own name in URLs and e-mail the same way", () => {
    const u = expectOk(["https://webflow.io/pricing", "url", "https://webflow.io/pricing"]);
    expect(u.attributes).toMatchObject({ registered_domain: "webflow.io", public_suffix: "io", platform_suffix: "webflow.io" });
    const m = expectOk(["support@github.io", "email", "support@github.io"]);
    expect(m.attributes).toMatchObject({ registered_domain: "github.io" });
  });
  it("still refuses an ICANN public suffix itself", () => {
    expectBad(["co.uk", "entity.invalid"]);
    expectBad(["com.au", "entity.invalid"]);
  });
  it("records hidden characters and defanging", () => {
    const e = expectOk(["pay\u200Bpal\u202E.com", "domain", "paypal.com"]);
    expect(e.attributes.hidden_characters).toEqual(["U+200B", "U+202E"]);
    expect(e.attributes.bidi_controls).toBe(true);
    expect(expectOk(["paypal[.]com", "domain", "paypal.com"]).attributes.defanged).toBe(true);
  });
});

describe("URLs", () => {
  const ok: Ok[] = [
    ["https://example.com", "url", "https://example.com/"],
    ["HTTPS://EXAMPLE.COM/Path", "url", "https://example.com/Path"],
    ["https://example.com:443/a", "url", "https://example.com/a"],
    ["http://example.com:80/a", "url", "http://example.com/a"],
    ["http://example.com:8080/a", "url", "http://example.com:8080/a"],
    ["https://example.com/a?b=1&c=2", "url", "https://example.com/a?b=1&c=2"],
    ["https://example.com/a#frag", "url", "https://example.com/a"],
    ["https://user:secret@example.com/", "url", "https://user@example.com/"],
    ["https://paypal.com@evil.example.com/login", "url", "https://paypal.com@evil.example.com/login"],
    ["https://münchen.de/straße", "url", "https://xn--mnchen-3ya.de/stra%C3%9Fe"],
    ["hxxps://evil[.]com/login", "url", "https://evil.com/login"],
    ["hXXp://evil(dot)com", "url", "http://evil.com/"],
    ["hxxps[://]evil[.]com/x", "url", "https://evil.com/x"],
    ["http://192.168.0.1/admin", "url", "http://192.168.0.1/admin"],
    ["http://0x7f.1/", "url", "http://127.0.0.1/"],
    ["http://2130706433/", "url", "http://127.0.0.1/"],
    ["http://0177.0.0.1/", "url", "http://127.0.0.1/"],
    ["http://[::1]/", "url", "http://[::1]/"],
    ["example.com/login", "url", "https://example.com/login"],
    ["www.example.com/a?b=c", "url", "https://www.example.com/a?b=c"],
    ["example.com:8443", "url", "https://example.com:8443/"],
    ["//example.com/x", "url", "https://example.com/x"],
    ["paypal.com@evil.com/x", "url", "https://paypal.com@evil.com/x"],
    ["https://x.com/elonmusk", "url", "https://x.com/elonmusk"],
    ["https://t.me/durov", "url", "https://t.me/durov"],
    ["https://bit.ly/3abcDEF", "url", "https://bit.ly/3abcDEF"],
    ["https://example.com/path with space", "url", "https://example.com/path%20with%20space"],
    ["https://EXAMPLE.com./a", "url", "https://example.com./a"],
  ];
  it.each(ok)("%s → %s %s", (...c) => void expectOk(c));

  const bad: Bad[] = [
    ["javascript:alert(1)", "entity.unsupported"],
    ["ftp://example.com/file", "entity.unsupported"],
    ["data:text/html,<script>", "entity.unsupported"],
    ["file:///etc/passwd", "entity.unsupported"],
    ["https://", "entity.invalid"],
    ["https://exa mple.com/", "entity.invalid"],
    ["https://localhost/", "entity.invalid"],
    ["https://example.notatld/", "entity.invalid"],
    ["https://-bad-.com/", "entity.invalid"],
    ["http://300.1.1.1/", "entity.invalid"],
  ];
  it.each(bad)("%s → %s", (...c) => expectBad(c));

  it("records userinfo, the visible deception of https://paypal.com@evil.com", () => {
    const e = expectOk(["https://paypal.com@evil.example.com/login", "url", "https://paypal.com@evil.example.com/login"]);
    expect(e.attributes).toMatchObject({ userinfo: "paypal.com", host: "evil.example.com", registered_domain: "example.com", has_password: false });
  });
  it("drops a password and a fragment but says they were there", () => {
    const e = expectOk(["https://u:p@example.com/#me@victim.com", "url", "https://u@example.com/"]);
    expect(e.attributes).toMatchObject({ has_password: true, has_fragment: true });
  });
  it("records IP-literal hosts and their disguise", () => {
    const e = expectOk(["http://0x7f.1/", "url", "http://127.0.0.1/"]);
    expect(e.attributes).toMatchObject({ ip_literal: "127.0.0.1", ip_version: 4, ip_obfuscated: "0x7f.1" });
    expect(expectOk(["http://[::1]/", "url", "http://[::1]/"]).attributes).toMatchObject({ ip_literal: "[::1]", ip_version: 6 });
  });
  it("records the port and an inferred scheme", () => {
    expect(expectOk(["example.com:8443", "url", "https://example.com:8443/"]).attributes).toMatchObject({ port: 8443, scheme_inferred: true });
  });
  const profiles: (readonly [string, string])[] = [
    ["https://x.com/ElonMusk", "x:@elonmusk"],
    ["https://twitter.com/elonmusk/status/1", "x:@elonmusk"],
    ["https://www.instagram.com/natgeo/", "instagram:natgeo"],
    ["https://t.me/durov", "telegram:@durov"],
    ["https://www.tiktok.com/@khaby.lame", "tiktok:@khaby.lame"],
    ["https://www.youtube.com/@MrBeast", "youtube:@mrbeast"],
    ["https://github.com/nodejs", "github:nodejs"],
    ["https://www.reddit.com/user/spez", "reddit:spez"],
    ["https://www.linkedin.com/in/satyanadella", "linkedin:satyanadella"],
    ["https://www.facebook.com/zuck", "facebook:zuck"],
  ];
  it.each(profiles)("%s stays a url and records %s", (input, account) => {
    const r = parseEntity(input);
    expect(r.ok && r.entity.type).toBe("url");
    expect(r.ok && r.entity.attributes.social_account).toBe(account);
  });
  it.each(["https://x.com/home", "https://github.com/settings", "https://t.me/joinchat", "https://www.instagram.com/p/abc"])(
    "%s is a page, not an account",
    (input) => {
      const r = parseEntity(input);
      expect(r.ok && r.entity.attributes.social_account).toBeUndefined();
    },
  );
});

describe("e-mail", () => {
  const ok: Ok[] = [
    ["alice@example.com", "email", "alice@example.com"],
    ["Alice@Example.COM", "email", "alice@example.com"],
    ["alice.smith+news@example.co.uk", "email", "alice.smith+news@example.co.uk"],
    ["binance.support@gmail.com", "email", "binance.support@gmail.com"],
    ["mailto:bob@example.com", "email", "bob@example.com"],
    ["MAILTO:bob@example.com?subject=hi", "email", "bob@example.com"],
    ["user@münchen.de", "email", "user@xn--mnchen-3ya.de"],
    ["user@аpple.com", "email", "user@xn--pple-43d.com"],
    ["üser@example.com", "email", "üser@example.com"],
    ["o'brien@example.ie", "email", "o'brien@example.ie"],
    ["support[at]binance-help.top", "email", "support@binance-help.top"],
    ["support(at)example[.]com", "email", "support@example.com"],
    ["a@b.io", "email", "a@b.io"],
    ["x_y-z@sub.example.org", "email", "x_y-z@sub.example.org"],
  ];
  it.each(ok)("%s → %s %s", (...c) => void expectOk(c));
  const bad: Bad[] = [
    ["@example.com", "entity.invalid"],
    ["alice@", "entity.invalid"],
    [".alice@example.com", "entity.invalid"],
    ["alice.@example.com", "entity.invalid"],
    ["al..ice@example.com", "entity.invalid"],
    [`${"a".repeat(65)}@example.com`, "entity.invalid"],
    ["alice@example", "entity.invalid"],
    ["alice@exa_mple.com", "entity.invalid"],
    ["alice@[192.168.0.1]", "entity.unsupported"],
    ['"alice smith"@example.com', "entity.unrecognized"],
    ["al(ice@example.com", "entity.invalid"],
  ];
  it.each(bad)("%s → %s", (...c) => expectBad(c));
  it("describes the address", () => {
    const e = expectOk(["Alice+Promo@Mail.Example.com", "email", "alice+promo@mail.example.com"]);
    expect(e.attributes).toMatchObject({ local_part: "alice+promo", domain: "mail.example.com", registered_domain: "example.com", plus_tag: "promo", smtputf8: false });
  });
});

describe("IPv4 addresses", () => {
  const ok: Ok[] = [
    ["8.8.8.8", "ip_address", "8.8.8.8"],
    ["1.2.3.4", "ip_address", "1.2.3.4"],
    [" 192.168.1.1 ", "ip_address", "192.168.1.1"],
    ["0.0.0.0", "ip_address", "0.0.0.0"],
    ["255.255.255.255", "ip_address", "255.255.255.255"],
    ["10.0.0.1", "ip_address", "10.0.0.1"],
    ["100.64.0.1", "ip_address", "100.64.0.1"],
    ["127.0.0.1", "ip_address", "127.0.0.1"],
    ["185.220.101.1", "ip_address", "185.220.101.1"],
    ["8[.]8[.]8[.]8", "ip_address", "8.8.8.8"],
  ];
  it.each(ok)("%s → %s %s", (...c) => void expectOk(c));
  const bad: Bad[] = [
    ["256.1.1.1", "entity.invalid"],
    ["999.1.1.1", "entity.invalid"],
    ["1.2.3.999", "entity.invalid"],
    ["0777.1.1.1", "entity.invalid"],
    ["0x100.1.1.1", "entity.invalid"],
    ["999.1.1", "entity.invalid"],
    ["1.2.3", "entity.ambiguous"],
    ["010.1.1.1", "entity.ambiguous"],
    ["0300.1.1.1", "entity.ambiguous"],
    ["0x7f.0.0.1", "entity.ambiguous"],
    ["0x7f.1", "entity.ambiguous"],
    ["1.2.70000", "entity.ambiguous"],
    ["127.1", "entity.ambiguous"],
    ["1.2.3.4.5", "entity.invalid"],
    ["::1", "entity.unsupported"],
    ["2001:db8::1", "entity.unsupported"],
    ["::ffff:1.2.3.4", "entity.unsupported"],
    ["[2001:db8::1]", "entity.unsupported"],
  ];
  it.each(bad)("%s → %s", (...c) => expectBad(c));
  it("names the range", () => {
    expect(expectOk(["10.1.2.3", "ip_address", "10.1.2.3"]).attributes).toMatchObject({ version: 4, range: "private" });
    expect(expectOk(["100.64.1.1", "ip_address", "100.64.1.1"]).attributes.range).toBe("carrierGradeNat");
    expect(expectOk(["8.8.4.4", "ip_address", "8.8.4.4"]).attributes.range).toBe("unicast");
  });
  it.each([
    ["999.1.1.1", "999"],
    ["1.2.3.256", "256"],
    ["1.300.3.4", "300"],
  ])("names the octet out of range in %s", (input, octet) => {
    const r = parseEntity(input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code: "entity.invalid", type: "ip_address" });
    expect(r.error.message).toContain(`${octet} is more than 255`);
    expect(r.error.message).not.toMatch(/leading zeros|ambiguous/);
  });
  it("tells the browser's reading of an ambiguous form", () => {
    const r = parseEntity("0x7f.1");
    expect(!r.ok && r.error.message).toContain("127.0.0.1");
  });
});

describe("phone numbers", () => {
  const ok: Ok[] = [
    ["+44 20 7946 0958", "phone", "+442079460958"],
    ["+1 (415) 555-2671", "phone", "+14155552671"],
    ["+1-202-456-1111", "phone", "+12024561111"],
    ["+33 1 42 68 53 00", "phone", "+33142685300"],
    ["+49 30 901820", "phone", "+4930901820"],
    ["+91 98765 43210", "phone", "+919876543210"],
    ["+234 803 123 4567", "phone", "+2348031234567"],
    ["+55 11 91234-5678", "phone", "+5511912345678"],
    ["+81 3-1234-5678", "phone", "+81312345678"],
    ["tel:+14155552671", "phone", "+14155552671"],
    ["+1.415.555.2671", "phone", "+14155552671"],
    ["+1 900 555 0199", "phone", "+19005550199"],
    ["+44 909 879 0000", "phone", "+449098790000"],
    ["+447911123456", "phone", "+447911123456"],
  ];
  it.each(ok)("%s → %s %s", (...c) => void expectOk(c));
  const bad: Bad[] = [
    ["+1 23", "entity.unrecognized"],
    ["+999 1234 5678", "entity.invalid"],
    ["+1234567890123456789", "entity.invalid"],
    ["4155552671", "entity.unrecognized"],
    ["+44 20 7946 0958 ext", "entity.unrecognized"],
  ];
  it.each(bad)("%s → %s", (...c) => expectBad(c));
  it("records country and number type", () => {
    expect(expectOk(["+33 6 12 34 56 78", "phone", "+33612345678"]).attributes).toMatchObject({ country: "FR", country_calling_code: "33", number_type: "mobile", valid: true });
    expect(expectOk(["+1 900 555 0199", "phone", "+19005550199"]).attributes.number_type).toBe("premium_rate");
    expect(expectOk(["+44 909 879 0000", "phone", "+449098790000"]).attributes.number_type).toBe("premium_rate");
  });
  it("keeps a possible but invalid number, marked invalid", () => {
    const e = expectOk(["+1 555 012 3456", "phone", "+15550123456"]);
    expect(e.attributes.valid).toBe(false);
  });
  it("explicit phone type without + says what to do", () => {
    const r = parseEntity("020 7946 0958", { type: "phone" });
    expect(!r.ok && r.error.message).toContain("+");
  });
});

describe("social accounts", () => {
  const ok: Ok[] = [
    ["x:@Binance_Support", "social_account", "x:@binance_support"],
    ["x:binance", "social_account", "x:@binance"],
    ["twitter:@elonmusk", "social_account", "x:@elonmusk"],
    ["TWITTER:ElonMusk", "social_account", "x:@elonmusk"],
    ["instagram:natgeo", "social_account", "instagram:natgeo"],
    ["instagram:@nat.geo_", "social_account", "instagram:nat.geo_"],
    ["telegram:@durov", "social_account", "telegram:@durov"],
    ["telegram:Durov", "social_account", "telegram:@durov"],
    ["tg:@binance_official", "social_account", "telegram:@binance_official"],
    ["tiktok:@khaby.lame", "social_account", "tiktok:@khaby.lame"],
    ["youtube:@MrBeast", "social_account", "youtube:@mrbeast"],
    ["facebook:zuck.berg", "social_account", "facebook:zuck.berg"],
    ["discord:some_user.1", "social_account", "discord:some_user.1"],
    ["discord:olduser#1234", "social_account", "discord:olduser#1234"],
    ["github:torvalds", "social_account", "github:torvalds"],
    ["github:some-org", "social_account", "github:some-org"],
    ["reddit:u/spez", "social_account", "reddit:spez"],
    ["reddit:spez", "social_account", "reddit:spez"],
    ["linkedin:in/satyanadella", "social_account", "linkedin:satyanadella"],
    ["linkedin:satya-nadella-123", "social_account", "linkedin:satya-nadella-123"],
  ];
  it.each(ok)("%s → %s %s", (...c) => void expectOk(c));
  const bad: Bad[] = [
    ["x:@this_handle_is_too_long", "entity.invalid"],
    ["x:@bad-char", "entity.invalid"],
    ["telegram:@abc", "entity.invalid"],
    ["telegram:@1abcde", "entity.invalid"],
    ["telegram:@ab__cd", "entity.invalid"],
    ["instagram:.dot", "entity.invalid"],
    ["instagram:a..b", "entity.invalid"],
    ["github:-bad", "entity.invalid"],
    ["github:a--b", "entity.invalid"],
    ["reddit:ab", "entity.invalid"],
    ["x:home", "entity.invalid"],
    ["myspace:tom", "entity.unrecognized"],
    ["@binance", "entity.unrecognized"],
  ];
  it.each(bad)("%s → %s", (...c) => expectBad(c));
  it("records platform and handle", () => {
    expect(expectOk(["twitter:@Binance", "social_account", "x:@binance"]).attributes).toEqual({ platform: "x", handle: "binance" });
  });
});

describe("explicit types", () => {
  it.each([
    ["paypal.com", "url", "https://paypal.com/"],
    ["https://paypal.com", "url", "https://paypal.com/"],
    ["8.8.8.8", "ip_address", "8.8.8.8"],
    ["alice@example.com", "email", "alice@example.com"],
  ] as const)("%s as %s → %s", (input, type, value) => void expectOk([input, type, value], type));

  const mismatches: (readonly [string, EntityType])[] = [
    ["https://paypal.com/login", "domain"],
    ["1.2.3.4", "domain"],
    ["alice@example.com", "domain"],
    ["paypal.com", "email"],
    ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "domain"],
    ["+442079460958", "wallet"],
    ["x:@binance", "url"],
    ["paypal.com", "ip_address"],
    ["8.8.8.8", "phone"],
    ["alice@example.com", "social_account"],
  ];
  it.each(mismatches)("%s is not %s → entity.type_mismatch", (input, type) => {
    const r = parseEntity(input, { type });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("entity.type_mismatch");
      expect(r.error.type).toBe(type);
    }
  });
  it("rejects an unknown type", () => {
    const r = parseEntity("paypal.com", { type: "website" });
    expect(!r.ok && r.error.code).toBe("entity.unknown_type");
  });
  it("refuses non-strings without throwing", () => {
    for (const v of [null, undefined, 42, {}, [], true]) {
      const r = parseEntity(v);
      expect(!r.ok && r.error.code).toBe("entity.invalid_input");
    }
  });
});

describe("detection order and ambiguity", () => {
  it.each([
    ["1.2.3.4", "ip_address"],
    ["user@host.com", "email"],
    ["user@host.com/path", "url"],
    ["https://user@host.com", "url"],
    ["1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "wallet"],
    ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "wallet"],
    ["x:@name", "social_account"],
    ["mailto:a@b.com", "email"],
    ["tel:+14155552671", "phone"],
    ["+14155552671", "phone"],
    ["example.com:8080", "url"],
  ] as const)("%s is %s", (input, type) => {
    const r = parseEntity(input);
    expect(r.ok && r.entity.type).toBe(type);
  });
  it("a BTC address that is also valid base58 is read as bitcoin, not solana", () => {
    const r = parseEntity("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa");
    expect(r.ok && r.entity.attributes.chain).toBe("bitcoin");
  });
});

describe("0x values", () => {
  it.each([
    ["0x12345", 5],
    ["0x7f000001", 8],
    ["0X12", 2],
    ["0x", 0],
    ["0x" + "ab".repeat(32), 64],
  ])("%s is read as a broken Ethereum address, not an IPv4 address", (input, digits) => {
    const r = parseEntity(input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code: "entity.invalid", type: "wallet" });
    expect(r.error.message).toContain("looks like an Ethereum address");
    expect(r.error.message).toContain(`this has ${digits}`);
    expect(r.error.message).not.toMatch(/IPv4|dotted/);
  });
  it("names a non-hex character after 0x", () => {
    const r = parseEntity("0xg123");
    expect(!r.ok && r.error).toMatchObject({ code: "entity.invalid", type: "wallet", message: expect.stringContaining("'g' is not a hex digit") });
  });
  it("leaves dotted hex to IPv4 and 0x-names to domains", () => {
    expect(!parseEntity("0x7f.1").ok && (parseEntity("0x7f.1") as { error: { code: string } }).error.code).toBe("entity.ambiguous");
    expectOk(["0xabc.com", "domain", "0xabc.com"]);
    expectOk(["0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "wallet", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"]);
  });
  it("keeps the IPv4 reading when the type says so", () => {
    expectBad(["0x7f000001", "entity.ambiguous"], "ip_address");
  });
});
