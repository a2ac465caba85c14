import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeEdit } from "./describe.js";
import { BestFindings, finding } from "./findings.js";
import { hostView, isOfficialHost, labelParts, splitAtDots } from "./host-view.js";
import { parse } from "./test-support.js";

describe("splitAtDots", () => {
  it("is split(\".\")", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.-]{0,30}$/), (s) => {
        expect(splitAtDots(s)).toEqual(s.split("."));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("hostView", () => {
  it.each([
    ["www.paypal.co.uk", "paypal", "co.uk", 1],
    ["https://login.evil.example.com/x", "example", "com", 2],
    ["me@mail.evil.net", "evil", "net", 1],
    ["xn--pple-43d.com", "xn--pple-43d", "com", 0],
  ])("%s: registrable label %s on %s at %i", (input, label, suffix, at) => {
    const v = hostView(parse(input));
    expect(v).toMatchObject({ label, suffix, registrableIndex: at });
  });

  it("keeps the displayed (Unicode) labels beside the ASCII ones", () => {
    expect(hostView(parse("www.аpple.com"))?.unicodeLabels).toEqual(["www", "аpple", "com"]);
  });

  it("has no view for entities without a host name", () => {
    expect(hostView(parse("x:@paypal"))).toBeNull();
    expect(hostView(parse("http://192.0.2.1/"))).toBeNull();
  });
});

describe("labelParts", () => {
  it.each([
    ["binance-support-login", ["binance", "support", "login"]],
    ["paypal2024", ["paypal2024", "paypal"]],
    ["office365", ["office365", "office"]],
    ["1inch-app", ["1inch", "inch", "app"]],
  ])("%s → %j", (label, parts) => {
    expect(labelParts(label)).toEqual(parts);
  });
});

describe("labelParts (character loop)", () => {
  /** The definition: split at hyphens, and each part with digits also at runs of digits. */
  function bySplitting(label: string): string[] {
    const out: string[] = [];
    for (const part of label.split("-")) {
      if (part.length === 0) continue;
      out.push(part);
      if (/\d/.test(part)) for (const piece of part.split(/\d+/)) if (piece.length > 0) out.push(piece);
    }
    return out;
  }

  it("cuts any label as splitting it would", () =>
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{0,30}$/), (label) => {
        expect(labelParts(label)).toEqual(bySplitting(label));
      }),
      { numRuns: 3000 },
    ));
});

describe("isOfficialHost", () => {
  const official = new Set(["paypal.com", "gov.uk"]);
  it.each([
    ["paypal.com", true],
    ["www.paypal.com", true],
    ["a.b.paypal.com", true],
    ["www.gov.uk", true], // gov.uk is a public suffix and an official domain
    ["paypal.com.evil.app", false],
    ["notpaypal.com", false],
  ])("%s → %s", (host, expected) => {
    expect(isOfficialHost(hostView(parse(host))!, official)).toBe(expected);
  });
  it("an official domain that is also user content vouches for itself, not for names under it", () => {
    const both = new Set(["tumblr.com"]);
    expect(isOfficialHost(hostView(parse("tumblr.com"))!, both, both)).toBe(true);
    expect(isOfficialHost(hostView(parse("paypal-help.tumblr.com"))!, both, both)).toBe(false);
    expect(isOfficialHost(hostView(parse("www.paypal.com"))!, official, both)).toBe(true);
  });
});

describe("describeEdit", () => {
  it.each([
    ["paypal", "paypa1", "homoglyph", 1, "look-alike characters: l → 1"],
    ["paypal", "pyapal", "transposition", 1, "two letters swapped: ay → ya"],
    ["paypal", "paypl", "omission", 1, "one character left out: “a”"],
    ["paypal", "ppaypal", "repetition", 1, "a character doubled: “p”"],
    ["paypal", "paypall", "addition", 1, "one character added: “l”"],
    ["paypal", "pay-pal", "hyphenation", 1, "a hyphen added"],
    ["paypal", "raypal", "bitsquatting", 1, "one character replaced: p → r (a single flipped bit)"],
    ["paypal", "paypxl", "edit-distance", 1, "one character replaced: a → x"],
    ["americanexpress", "amerikanexpres", "edit-distance", 2, "two characters different: “americanexpress” → “amerikanexpres”"],
  ] as const)("%s → %s by %s", (token, seen, technique, distance, text) => {
    expect(describeEdit(token, seen, technique, distance)).toBe(text);
  });
});

describe("BestFindings", () => {
  const src = { name: "brands", version: "t" };
  it("keeps the strongest per code and drops a weak brand-name finding a stronger one explains", () => {
    const out = new BestFindings();
    out.add(finding("domain.lookalike_brand", "impersonation", "a", { brand: "paypal", target: "paypal.com" }, src, 0.6));
    out.add(finding("domain.lookalike_brand", "impersonation", "b", { brand: "paypal", target: "paypal.com" }, src, 0.9));
    out.add(finding("domain.brand_in_name", "impersonation", "c", { brand: "paypal", target: "paypal.com" }, src, 0.6));
    out.add(finding("domain.brand_in_subdomain", "impersonation", "d", { brand: "google", target: "google.com" }, src, 0.55));
    expect(out.list().map((f) => [f.code, f.message])).toEqual([
      ["domain.lookalike_brand", "b"],
      ["domain.brand_in_subdomain", "d"],
    ]);
  });

  it("clamps and rounds strength into 0..1", () => {
    expect(finding("x", "impersonation", "", {}, src, 1.234).strength).toBe(1);
    expect(finding("x", "impersonation", "", {}, src, 0.8499).strength).toBe(0.85);
  });
});
