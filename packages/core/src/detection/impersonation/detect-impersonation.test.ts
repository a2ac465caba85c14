import { brands } from "@svc/intel";
import { describe, expect, it } from "vitest";
import type { Finding } from "../types.js";
import { detectImpersonation } from "./index.js";
import { parse, testIndex } from "./test-support.js";

const index = testIndex();
const findings = (input: string): Finding[] => detectImpersonation(parse(input), index);
const codes = (input: string): string[] => findings(input).map((f) => f.code).sort();
const one = (input: string, code: string): Finding => {
  const f = findings(input).find((x) => x.code === code);
  if (!f) throw new Error(`${input}: no ${code} among ${codes(input).join(", ") || "nothing"}`);
  return f;
};

const FUZZY_OR_COMBO = ["domain.homograph", "domain.lookalike_brand", "domain.combosquatting", "domain.brand_embedding"];

describe("required detections", () => {
  it.each([
    ["paypa1.com", "domain.lookalike_brand", "paypal"],
    ["xn--pple-43d.com", "domain.homograph", "apple"],
    ["metamask-io.claim-airdrop.xyz", "domain.combosquatting", "metamask"],
    ["google.com-secure-login.top", "domain.brand_embedding", "google"],
    ["paypal.com.evil.app", "domain.brand_embedding", "paypal"],
    ["binance-support-login.com", "domain.combosquatting", "binance"],
    ["coinbase.verify-account.net", "domain.combosquatting", "coinbase"],
    ["rnetamask.io", "domain.lookalike_brand", "metamask"],
    ["metamsak.io", "domain.lookalike_brand", "metamask"],
    ["arnazon.com", "domain.lookalike_brand", "amazon"],
    ["paypal-secure.xyz", "domain.combosquatting", "paypal"],
  ])("%s → %s (%s)", (input, code, brand) => {
    const f = one(input, code);
    expect(f.evidence.brand).toBe(brand);
    expect(f.family).toBe("impersonation");
    expect(f.source).toEqual({ name: "brands", version: index.source.version });
    expect(f.strength).toBeGreaterThan(0.5);
  });
});

describe("legitimate names are left alone", () => {
  it.each([
    // The brief's list.
    "paypal.com", "www.paypal.com", "metamask.io", "github.com", "google.com", "accounts.google.com", "pineapple.com",
    "groups.google.com", "purchase.com", "apple.com", "support.apple.com", "upstart.com", "wikipedia.org",
    "stackoverflow.com", "booking.com", "example.com", "my-little-shop.de",
    // "chaseliquidators.com": "chase" is an ordinary word (a short token), matched only as a whole label part.
    // The label is one undivided compound with no hyphen or digit boundary and no lure word, the usual
    // shape of a real business name ("chase" as in pursuit, or a surname), and nothing in it imitates
    // JPMorgan Chase's spelling or domain. Reporting it would flag every "chase…" company.
    "chaseliquidators.com",
    // Real companies and words that contain or resemble brand names.
    "paypalobjects.com", "applebees.com", "snapple.com", "amazonia.org", "zoominfo.com", "skyscanner.net",
    "theupsstore.com", "deltadental.com", "delta-dental.com", "orange-county.gov", "squarespace.com", "bingo.com",
    "mail.com", "email.com", "finance.yahoo.com", "interest.com", "cloud.com", "express.com", "delivery.com",
    "mobile.de", "googleblog.com", "microsoftstore.com", "myproject.github.io", "en.wikipedia.org", "bbc.co.uk",
    "pay.google.com", "amazon.de", "amazon.co.uk", "ebay.co.uk", "contoso.sharepoint.com", "paypal.me", "t.me",
    "docs.github.com", "applied.com", "amazing.com", "googol.com", "trust.org", "never.com", "www.gov.uk",
    "www.nhs.uk", "go-live.com", "targetpractice.com", "signalhill.com", "wiseman.com", "telegraph.co.uk",
    "metalworks.com", "groupon.com", "kodak.com", "lloyd.com", "mybucket.s3.amazonaws.com", "deli.com", "finance.com",
    // Cyrillic words under a Cyrillic TLD are read in their own script.
    "аррӏе.рф",
    // E-mail and URLs on official hosts.
    "support@paypal.com", "no-reply@accounts.google.com", "https://www.paypal.com/signin", "https://metamask.io/download/",
  ])("%s", (input) => {
    expect(codes(input).filter((c) => FUZZY_OR_COMBO.includes(c))).toEqual([]);
  });

  it("reports nothing at all for a host on any brand's official domain or below it", () => {
    for (const b of brands.slice(0, 200)) {
      for (const d of b.officialDomains) {
        expect(codes(d), d).toEqual([]);
        expect(codes(`login.secure.${d}`), d).toEqual([]);
      }
    }
  });

  it("never reports the registrable name of a brand's own user-content host", () => {
    expect(codes("paypal.me")).toEqual([]);
    expect(codes("telegra.ph")).toEqual([]);
    // ...but its sub-domains are anyone's.
    expect(codes("paypal-login.sharepoint.com")).toContain("domain.combosquatting");
  });
});

describe("dnstwist permutations", () => {
  it.each([
    ["pay-pal.com", "hyphenation"],
    ["paypall.com", "repetition"],
    ["paypa.com", "omission"],
    ["paypak.com", "replacement"],
    ["paypel.com", "vowel-swap"],
    ["paypaql.com", "insertion"],
    ["paypal1.com", "addition"],
    ["raypal.com", "bitsquatting"],
    ["microsfot.com", "transposition"],
    ["g00gle.com", "homoglyph"],
    ["micros0ft.com", "homoglyph"],
    ["rnicrosoft.com", "homoglyph"],
    ["instagrarn.com", "homoglyph"],
    ["netfllx.com", "homoglyph"],
    ["linkedln.com", "homoglyph"],
    ["blnance.com", "homoglyph"],
    ["gooogle.com", "repetition"],
    ["faceboook.com", "repetition"],
    ["coinbaes.com", "transposition"],
    ["githuh.com", "replacement"],
    ["appie.com", "homoglyph"],
    ["app1e.com", "homoglyph"],
    ["metamask.xyz", "tld-swap"],
    ["pay22pal.com", "insertion"],
    ["p4yp4l.com", "homoglyph"],
    ["c01nb4se.com", "homoglyph"],
    ["metamask2024x.com", "addition"],
    ["0ffice365.com", "homoglyph"],
    ["pay.pal.com", "subdomain"],
    ["www.pay.pal.com", "subdomain"],
  ])("%s → %s", (input, technique) => {
    const f = one(input, "domain.lookalike_brand");
    expect(f.evidence.technique).toBe(technique);
    expect(typeof f.evidence.target).toBe("string");
    expect(f.message).toContain(String(f.evidence.target));
  });

  it("explains the edit the way the brief asks", () => {
    expect(one("paypa1.com", "domain.lookalike_brand").message).toBe("Looks like paypal.com (look-alike characters: l → 1)");
    expect(one("paypak.com", "domain.lookalike_brand").message).toBe("Looks like paypal.com (one character replaced: l → k)");
    expect(one("metamsak.io", "domain.lookalike_brand").message).toBe("Looks like metamask.io (two letters swapped: as → sa)");
    expect(one("paypa1.com", "domain.lookalike_brand").evidence).toMatchObject({ target: "paypal.com", brand: "paypal", technique: "homoglyph", distance: 1 });
  });

  it("finds a look-alike inside one hyphen-separated part", () => {
    expect(one("micorsoft-login.com", "domain.lookalike_brand").evidence).toMatchObject({ brand: "microsoft", seen: "micorsoft" });
    expect(one("amaz0n-prime.com", "domain.lookalike_brand").evidence).toMatchObject({ brand: "amazon", technique: "homoglyph" });
    expect(one("rnetamask-wallet.com", "domain.lookalike_brand").evidence).toMatchObject({ brand: "metamask" });
  });

  it("a token on a TLD the brand already uses is only a brand name, not a swap (appleid.com is Apple's, unlisted)", () => {
    expect(codes("appleid.com")).toEqual(["domain.brand_in_name"]);
    expect(one("paypal.net", "domain.lookalike_brand").evidence.technique).toBe("tld-swap");
  });

  it("same name on a country-code TLD is weaker than on a generic one (brands often own their ccTLDs)", () => {
    expect(one("paypal.xyz", "domain.lookalike_brand").strength).toBe(0.8);
    expect(one("paypal.io", "domain.lookalike_brand").strength).toBe(0.8); // .io is sold as a generic name
    expect(one("paypal.de", "domain.lookalike_brand").strength).toBe(0.5);
    expect(one("paypal.com.mx", "domain.lookalike_brand").strength).toBe(0.5);
  });
});

describe("edit distance", () => {
  it.each([
    ["paypxl.com", "paypal", 1],
    ["p4ypal.com", "paypal", 1], // leetspeak is an edit, not a look-alike
    ["amerikanexpres.com", "americanexpress", 2],
    ["wellsfrago.com", "wellsfargo", 1],
    ["microsotf.com", "microsoft", 1],
  ])("%s → %s within %i edits", (input, brand, distance) => {
    const f = one(input, "domain.lookalike_brand");
    expect(f.evidence).toMatchObject({ brand, distance });
  });

  it("scales strength with closeness: one edit on a long token ≈ 1, two edits on eleven letters or more just reach high", () => {
    expect(one("faceboook.com", "domain.lookalike_brand").strength).toBe(1);
    expect(one("amerikanexpres.com", "domain.lookalike_brand").strength).toBe(0.87);
  });

  it("a typo that changes the first letter is weaker than one that keeps it, unless the letter is a look-alike", () => {
    // Another first letter usually makes another word (a real business), not a typo.
    expect(one("metamsak.io", "domain.lookalike_brand").strength).toBe(1);
    expect(one("cetamask.io", "domain.lookalike_brand").strength).toBeCloseTo(0.8);
    expect(one("rnetamask.io", "domain.lookalike_brand").strength).toBe(1);
  });

  it.each([
    "amazing.com", "googol.com", "bingo.com", "monzas.com", "nikes.com",
    // Two edits on a nine- or ten-letter token reach real businesses (all from the free-mail provider list).
    "centurylink.net", "realmail.co", "coinlink.club", "w3internet.co.uk", "catgroup.uk",
    // Five-letter tokens get no keyboard or bit-flip typos: "?mail" is a whole namespace of real providers.
    "fmail.com", "cmail.com", "amail.com", "hmail.us", "6mail.cf", "7mail.ga", "imail.edu.vn",
  ])("%s is not a look-alike", (input) => {
    expect(codes(input)).not.toContain("domain.lookalike_brand");
  });
});

describe("homographs (UTS #39 skeleton)", () => {
  it.each([
    ["xn--pple-43d.com", "apple", ["Cyrillic", "Latin"]],
    ["аррӏе.com", "apple", ["Cyrillic"]],
    ["раураl.com", "paypal", ["Cyrillic", "Latin"]],
    ["gооgle.com", "google", ["Latin", "Cyrillic"]],
    ["paypál.com", "paypal", ["Latin"]],
    ["https://www.xn--pple-43d.com/login", "apple", ["Cyrillic", "Latin"]],
    ["ceo@xn--pple-43d.com", "apple", ["Cyrillic", "Latin"]],
  ])("%s → %s written in %j", (input, brand, scripts) => {
    const f = one(input, "domain.homograph");
    expect(f.evidence).toMatchObject({ brand, technique: "homograph", scripts });
    expect(f.strength).toBe(1);
  });

  it.each([
    ["myeтherwallet.com", "myetherwallet"], // Cyrillic т: UTS #39 sends it to small capital ᴛ
    ["myetнerwallet.com", "myetherwallet"], // Cyrillic н → ʜ
    ["myεtherwallet.com", "myetherwallet"], // Greek ε → ꞓ
    ["мyetherwallet.com", "myetherwallet"], // Cyrillic м → ʍ
  ])("%s: letters the table sends to small capitals are read as the Latin letter they look like", (input, brand) => {
    expect(one(input, "domain.homograph").evidence).toMatchObject({ brand, distance: 0 });
  });

  it("reads an internationalised name as ASCII for brand names and lure words (combosquatting behind accents)", () => {
    const f = one("logín-blockchaín.com", "domain.combosquatting");
    expect(f.evidence).toMatchObject({ brand: "blockchaincom", keyword: "login", shown: "logín-blockchaín" });
    expect(f.message).toContain("look-alike letters");
    expect(codes("münchen.de")).toEqual([]);
    expect(codes("binance꓾trade.com")).not.toContain("domain.combosquatting"); // "꓾" reads as punctuation, not a host name
  });

  it("reads a homograph with a further typo as ASCII, at lower strength", () => {
    const f = one("pаypall.com", "domain.homograph");
    expect(f.evidence).toMatchObject({ brand: "paypal", distance: 1 });
    expect(f.strength).toBeLessThan(1);
  });

  it("the skeleton already reads digits as letters: Cyrillic а plus 1-for-l is an exact copy", () => {
    expect(one("pаypa1.com", "domain.homograph").evidence).toMatchObject({ brand: "paypal", distance: 0 });
  });

  it("a homograph in a sub-domain counts, less", () => {
    expect(one("аpple.evil.com", "domain.homograph").strength).toBe(0.8);
  });

  it("says what the name looks like", () => {
    expect(one("xn--pple-43d.com", "domain.homograph").message).toBe("“аpple” mixes Cyrillic and Latin letters to look like apple.com");
  });
});

describe("target embedding", () => {
  it.each([
    ["paypal.com-secure.net", "paypal.com"],
    ["paypal.com.evil.app", "paypal.com"],
    ["www-paypal-com.evil.xyz", "paypal.com"],
    ["paypalcom-login.top", "paypal.com"],
    ["amazon.co.uk.verify-order.shop", "amazon.co.uk"],
    ["login.microsoftonline.com.phish.ru", "microsoftonline.com"],
    ["https://accounts.google.com.evil.io/", "google.com"],
    ["binance.com.login-verify.xyz", "binance.com"],
    ["binance.com136347135.ml", "binance.com"], // the suffix glued to digits still reads as the end of the address
    ["paypal-com2024.help", "paypal.com"],
  ])("%s embeds %s", (input, target) => {
    const f = one(input, "domain.brand_embedding");
    expect(f.evidence.target).toBe(target);
    expect(f.strength).toBe(1);
    expect(f.message).toContain(target);
  });

  it.each(["go-live.com.evil.com", "metamask-io.xyz", "paypal-com.xyz", "office-com.example.org"])("%s is not an embedding", (input) => {
    expect(codes(input)).not.toContain("domain.brand_embedding");
  });
});

describe("combosquatting and brand names", () => {
  it.each([
    ["paypal-secure.xyz", "paypal", "secure"],
    ["binance-support-login.com", "binance", "login"],
    ["coinbase.verify-account.net", "coinbase", "verify"],
    ["metamask-io.claim-airdrop.xyz", "metamask", "airdrop"],
    ["coinbase.gifts", "coinbase", "gifts"], // a top-level domain that is itself a lure word
    ["binance.claims", "binance", "claim"],
    ["apple-id-verify.com", "apple", "verify"],
    ["ups-redelivery.com", "ups", "redelivery"],
    ["dhl-parcel-tracking.info", "dhl", "parcel"],
    ["wellsfargo-alerts.com", "wellsfargo", "alert"],
    ["paypalsecure.com", "paypal", "secure"],
    ["secure-paypal-login.net", "paypal", "login"],
    ["netflix-billing-update.com", "netflix", "billing"],
    ["coinbase-wallet-connect.app", "coinbase", "wallet"],
    ["metamask-wallet.pages.dev", "metamask", "wallet"],
    ["no-reply@paypal-secure.xyz", "paypal", "secure"],
    ["amazon-delivery-refund.com", "amazon", "refund"],
  ])("%s → %s + %s", (input, brand, keyword) => {
    const f = one(input, "domain.combosquatting");
    expect(f.evidence).toMatchObject({ brand, keyword });
    expect(typeof f.evidence.target).toBe("string");
  });

  it.each([
    ["metamask-io.xyz", "metamask", ["io"]],
    ["get-metamask.app", "metamask", ["get"]],
    ["coinbase-pro.app", "coinbase", ["pro"]],
    ["asia-binance-exchange.com", "binance", ["asia", "exchange"]],
    ["binanceus.net", "binance", ["us"]], // glued to a product word: reads as the brand's own site
    ["metamaskonline.com", "metamask", ["online"]],
    ["wwwbittrex.com", "bittrex", ["www"]],
    ["binance-web3.com", "binance", ["web3"]], // the part as written, not also "web"
  ])("%s → combosquatting with a plain word (%s): the name beside another word", (input, brand, words) => {
    const f = one(input, "domain.combosquatting");
    expect(f.evidence).toMatchObject({ brand, keyword: null, keywords: words });
    expect(f.strength).toBe(0.93);
    expect(codes(input)).not.toContain("domain.brand_in_name");
  });

  it("a hyphenated name whose other part is only digits or part of the brand's own name is still brand_in_name", () => {
    expect(codes("binance-2024.com")).toContain("domain.brand_in_name");
    expect(codes("binance-2024.com")).not.toContain("domain.combosquatting");
  });

  it.each([
    ["metamask.github.io", "metamask"],
    ["paypal2024.com", "paypal"],
    // Seven letters or more lead or end a part whatever is glued to them.
    ["coinbasecanada.com", "coinbase"],
    ["acctxcoinbase.com", "coinbase"],
    ["binancetoday.net", "binance"], // a longer label on another TLD is not the same-name-other-TLD case
  ])("%s → brand_in_name (%s)", (input, brand) => {
    const f = one(input, "domain.brand_in_name");
    expect(f.evidence.brand).toBe(brand);
    expect(f.strength).toBe(1);
    expect(codes(input)).not.toContain("domain.combosquatting");
  });

  it.each([
    ["metamask.evil.com", "metamask"],
    ["paypal.example-shop.net", "paypal"],
  ])("%s → brand_in_subdomain (%s)", (input, brand) => {
    expect(one(input, "domain.brand_in_subdomain").evidence.brand).toBe(brand);
  });

  it("a shorter name glued to an arbitrary word is not the brand", () => {
    // "paypal" (six letters) needs a lure word or a product affix beside it; ordinary words never count.
    expect(codes("paypalmerch.com")).toEqual([]);
    expect(codes("pineapplefarm.com")).toEqual([]);
  });

  it("an ordinary-word brand needs its lure word in the same label", () => {
    expect(codes("login.target.example.com")).toEqual([]);
    expect(codes("delta-login.example.com")).toContain("domain.combosquatting");
  });

  it("short tokens never match inside a longer word", () => {
    for (const input of ["groups-login.com", "pineapple-secure.com", "purchase-verify.com", "upstart-login.com"]) {
      expect(codes(input), input).toEqual([]);
    }
  });
});

describe("result shape", () => {
  it("gives at most one finding per code, strongest first, each naming its target", () => {
    for (const input of ["paypal.com-secure-login.paypa1.xyz", "metamask-io.claim-airdrop.xyz", "google.com-secure-login.top"]) {
      const fs = findings(input);
      expect(new Set(fs.map((f) => f.code)).size).toBe(fs.length);
      for (const f of fs) {
        expect(typeof f.evidence.target).toBe("string");
        expect(f.strength).toBeGreaterThan(0);
        expect(f.strength).toBeLessThanOrEqual(1);
      }
      const strengths = fs.map((f) => f.strength ?? 1);
      expect([...strengths].sort((a, b) => b - a)).toEqual(strengths);
    }
  });

  it("drops the weak 'brand name present' finding when a stronger one names the same brand", () => {
    expect(codes("paypal-secure.xyz")).toEqual(["domain.combosquatting"]);
    expect(codes("paypal.com.evil.app")).toEqual(["domain.brand_embedding"]);
  });

  it("ignores other entity types and IP-literal URLs", () => {
    expect(detectImpersonation(parse("x:@paypa1"), index)).toEqual([]);
    expect(detectImpersonation(parse("http://192.0.2.1/paypal"), index)).toEqual([]);
  });

  it("is deterministic", () => {
    expect(findings("paypa1.com")).toEqual(findings("paypa1.com"));
  });
});
