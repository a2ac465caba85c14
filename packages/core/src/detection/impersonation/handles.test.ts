import { describe, expect, it } from "vitest";
import type { Finding } from "../types.js";
import { detectHandleImpersonation } from "./index.js";
import { parse, testIndex } from "./test-support.js";

const index = testIndex();
const run = (input: string): Finding[] => detectHandleImpersonation(parse(input), index);

describe("social handle impersonation", () => {
  it("x:@binance_support is dressed up as Binance's support (the brief's example)", () => {
    const [f, ...rest] = run("x:@binance_support");
    expect(rest).toEqual([]);
    expect(f?.code).toBe("social.impersonation_decoration");
    expect(f?.family).toBe("social");
    expect(f?.evidence).toMatchObject({ brand: "binance", official: ["binance"], decoration: "support" });
    expect(f?.message).toBe("Poses as Binance's “support” account; the official x account is @binance");
  });

  it.each([
    ["telegram:@binance_help", "binance", "help", ["binanceexchange"]],
    ["x:@metamasksupport", "metamask", "support", ["metamask"]],
    ["instagram:paypal.official", "paypal", "official", ["paypal"]],
    ["telegram:@metamask_support", "metamask", "support", ["metamask"]],
    ["x:@applesupport", "apple", "support", ["apple"]],
    ["x:@apple_support", "apple", "support", ["apple"]],
    ["x:@krakenfx_help", "kraken", "help", ["krakenfx"]],
    ["github:paypal-support", "paypal", "support", ["paypal"]],
    ["reddit:coinbase_support", "coinbase", "support", ["coinbase"]],
    ["x:@realbinance", "binance", "real", ["binance"]],
    ["x:@thebinance", "binance", "the", ["binance"]],
    ["x:@binance2", "binance", "digits", ["binance"]],
    ["x:@coinbasehelp24", "coinbase", "help", ["coinbase"]],
  ])("%s → decoration of %s (%s)", (input, brand, decoration, official) => {
    const [f] = run(input);
    expect(f?.code).toBe("social.impersonation_decoration");
    expect(f?.evidence).toMatchObject({ brand, decoration, official });
  });

  it("strong decorations weigh more than weak ones and digits", () => {
    const strength = (s: string) => run(s)[0]?.strength;
    expect(strength("x:@binance_support")).toBeGreaterThan(strength("x:@thebinance") as number);
    expect(strength("x:@thebinance")).toBeGreaterThan(strength("x:@binance2") as number);
  });

  it.each([
    ["x:@b1nance", "binance", "homoglyph"],
    ["x:@paypa1", "paypal", "homoglyph"],
    ["x:@coinbasee", "coinbase", "repetition"],
    ["x:@metamsak", "metamask", "transposition"],
    ["x:@b1nance_support", "binance", "homoglyph"],
    ["x:@bybit_officia1", "bybit", "edit-distance"],
  ])("%s → look-alike of %s (%s)", (input, brand, technique) => {
    const [f] = run(input);
    expect(f?.code).toBe("social.handle_lookalike");
    expect(f?.evidence).toMatchObject({ brand, technique });
    expect(typeof f?.evidence.target).toBe("string");
  });

  it("x:@b1nance names the official handle it imitates", () => {
    const [f] = run("x:@b1nance");
    expect(f?.evidence).toMatchObject({ target: "@binance", official: ["binance"], distance: 1 });
    expect(f?.message).toBe("Looks like the name Binance (look-alike characters: i → 1); the official x account is @binance");
  });

  it("points elsewhere when the platform has no official account listed", () => {
    const [f] = run("instagram:binance_support");
    expect(f?.evidence).toMatchObject({ brand: "binance", target: "x:@binance" });
    expect(f?.message).toContain("we know no official instagram account of Binance; on x it is @binance");
  });

  it("the brand's own name on a platform where another account is listed is a weak look-alike", () => {
    const [f] = run("telegram:@binance");
    expect(f?.code).toBe("social.handle_lookalike");
    expect(f?.evidence).toMatchObject({ technique: "unlisted-name", target: "@binanceexchange" });
    expect(f?.strength).toBe(0.5);
  });

  it.each(["x:@binance", "x:@paypal", "instagram:paypal", "x:@apple", "telegram:@binanceexchange", "x:@bybit_official"])(
    "%s is official (strength 0, for allowlisting)",
    (input) => {
      const fs = run(input);
      expect(fs.map((f) => f.code)).toEqual(["social.official_handle"]);
      expect(fs[0]?.strength).toBe(0);
    },
  );

  it.each([
    "x:@johnsmith", "x:@pineapple_fan", "x:@thesky", "instagram:binance", "x:@support", "x:@delta_fan", "x:@upsidedown",
    "x:@finance", "x:@groupsupport", "x:@chasethesun", "x:@skyhelp", "telegram:@interesting_news", "x:@the_real_deal",
  ])("%s: nothing", (input) => {
    expect(run(input)).toEqual([]);
  });

  it("ignores entities that are not social accounts", () => {
    expect(detectHandleImpersonation(parse("paypa1.com"), index)).toEqual([]);
  });
});
