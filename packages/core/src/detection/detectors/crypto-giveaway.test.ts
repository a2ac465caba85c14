import { describe, expect, it } from "vitest";
import { createScreener, defaultReference } from "../../screener.js";
import { cryptoGiveawayFindings } from "./crypto-giveaway.js";
import { entity } from "./test-helpers.js";

const ref = defaultReference();
const hit = (s: string) => cryptoGiveawayFindings(entity(s), ref).find((f) => f.code === "domain.crypto_giveaway")?.evidence as { term: string; lure: string } | undefined;

describe("crypto giveaway naming", () => {
  it.each([
    ["eth-giveaway.com", "eth", "giveaway"], // whole parts of one label
    ["btc-double.net", "btc", "double"],
    ["bonus.status-eth.top", "eth", "bonus"], // parts of different labels of one host
    ["freebtcminer.org", "btc", "free"], // written against each other
    ["giftether.top", "ether", "gift"],
    ["etheriumairdrop.com", "etherium", "airdrop"],
    ["doubleyourbitcoin.com", "bitcoin", "double"], // a long asset name, a short word between
    ["ethersnewgift.com", "ethers", "gift"],
    ["ethx10.com", "eth", "x10"], // the doubling promise itself
    ["x2-btc.net", "btc", "x2"],
    ["https://crypto-promo.example.net/claim", "crypto", "promo"],
    ["elon-giveaway.org", "elon", "giveaway"], // a figure fake giveaways invoke
    ["buterinpromo.live", "buterin", "promo"],
    ["btc10x.org", "btc", "10x"], // the promise written the other way round
    ["eth-promosgive.com", "eth", "promo"], // a lure word leading a longer part
    ["beetoken-ico.com", "token", "ico"], // an asset word ending a longer part: a fake token sale
    ["bnb-ethcompetition.com", "eth", "competition"],
  ])("%s names %s with %s", (input, term, lure) => {
    expect(hit(input)).toMatchObject({ term, lure });
  });

  it.each([
    "ethicalgifts.com", // "eth" inside another word: a three-letter ticker must touch its lure
    "methodfreight.com",
    "ethereum.org", // an asset alone
    "giveaway-winners.com", // a lure alone
    "bitcoin.org",
    "coinbase.com",
    "freedom.eth-tools.io", // "free" inside "freedom" is no lure word
    "ethernet-bonusprogram.example.com",
    "x10hosting.com", // a multiplier without an asset
    "tokenx100000.com",
    "elongatedgifts.com", // "elon" inside another word
    "muskrat-bonus.com",
    "elonmusk.blog", // a name alone
    "eth-freedom.org", // an ordinary word that begins with a lure word
  ])("%s is not giveaway naming", (input) => {
    expect(hit(input)).toBeUndefined();
  });

  it("explains the asset and the lure, with its data source", () => {
    const [f] = cryptoGiveawayFindings(entity("eth-giveaway.com"), ref);
    expect(f).toMatchObject({ code: "domain.crypto_giveaway", family: "impersonation", source: { name: "crypto-assets" } });
    expect(f?.source.version).toMatch(/^\d{4}\.\d+\.\d+$/);
    expect(f?.message).toContain("Ether");
    expect(f?.message).toContain("giveaway");
  });

  it("a name for an airdrop counts alone, a little weaker: the word is both the asset and the lure", () => {
    for (const d of ["airdrop-portal.com", "airdropbat.com", "claim.airdrops.services", "dex-airdrop.net"]) {
      const [f] = cryptoGiveawayFindings(entity(d), ref);
      expect(f, d).toMatchObject({ code: "domain.crypto_giveaway", evidence: { term: "airdrop" }, strength: 0.9 });
    }
    expect(hit("chairdrop.com")).toBeUndefined();
    expect(cryptoGiveawayFindings(entity("eth-airdrop.com"), ref)[0]?.strength).toBeUndefined(); // with an asset: full strength
  });

  it("names the person a celebrity giveaway invokes", () => {
    expect(cryptoGiveawayFindings(entity("elon-giveaway.org"), ref)[0]?.message).toContain("Elon Musk");
  });

  it("is high on its own, and only for hosts", async () => {
    // The rule alone (the learned model, which reads it as a feature, is tested in its own files).
    const s = createScreener({ domainModel: null });
    const r = await s.screen("eth-giveaway.com");
    expect(r.ok && r.verdict.risk_level).toBe("high");
    expect(cryptoGiveawayFindings(entity("0x52908400098527886e0f7030069857d2e4169ee7"), ref)).toEqual([]);
    expect(cryptoGiveawayFindings(entity("x:@eth_giveaway"), ref)).toEqual([]);
  });
});
