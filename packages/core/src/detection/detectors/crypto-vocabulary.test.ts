import { describe, expect, it } from "vitest";
import { createScreener, defaultReference } from "../../screener.js";
import { cryptoAssets } from "@svc/intel";
import { cryptoGiveawayFindings } from "./crypto-giveaway.js";
import { MAX_WORD } from "./crypto-vocabulary.js";
import { entity } from "./test-helpers.js";

const ref = defaultReference();
const find = (s: string, code: string) => cryptoGiveawayFindings(entity(s), ref).find((f) => f.code === code);

describe("wallet-drainer naming", () => {
  it.each([
    ["walletsync-live.org", "wallet", "sync"],
    ["dappsrectify.com", "dapps", "rectify"],
    ["restorewallets.online", "wallets", "restore"],
    ["tokenimport.com", "token", "import"],
    ["defi-errorfix.com", "defi", "error"],
    ["connecttodapps.ga", "dapps", "connect"],
    ["nft-verify.example.net", "nft", "verify"],
  ])("%s names a %s with %s", (input, object, action) => {
    const f = find(input, "domain.wallet_lure");
    expect(f).toMatchObject({ family: "impersonation", evidence: { object, action }, source: { name: "wallet-lures" } });
    expect(f?.message).toContain(object);
  });

  it.each(["wallet.example.com", "sync.example.com", "mywallet.com", "tokens.com", "leather-wallets.com", "dapp.com"])("%s has only one side: not a drainer name", (input) => {
    expect(find(input, "domain.wallet_lure")).toBeUndefined();
  });

  it.each([
    "definitelyimportant.com", // "defi" and "import" are pieces of longer English words
    "defibrillatorrepair.com",
    "dapperfix.com",
    "nft.tissue.com",
    "token.unlocks.app",
    "xn--dapp-fix.com", // punycode's own letters ("fix") are not what people read
    "walletconnect.network", // a brand's own name is the impersonation checks' business
  ])("%s: lure words inside other words do not count", (input) => {
    expect(find(input, "domain.wallet_lure")).toBeUndefined();
  });

  it("counts words written against each other or at the ends of a part, inflected too", () => {
    for (const d of ["walletsynclive.com", "syncwalletlivetokenrestore.org", "walletsconnections.com", "fixedwallet.org", "restoresexoduswallets.online", "walletissuesfixall.org"]) {
      expect(find(d, "domain.wallet_lure"), d).toBeDefined();
    }
    expect(find("walletsynclive.com", "domain.wallet_lure")?.message).toBe("Names “wallet” with “sync”: how wallet drainers name their fake repair and sync pages (no wallet needs this on a website)");
  });

  it("names the words as read, not a longer object that borrows the action's first letter", () => {
    expect(find("walletsyncwalletsync.com", "domain.wallet_lure")?.evidence).toEqual({ object: "wallet", action: "sync" });
  });

  it("an object and an action must be two words, not one inside the other", () => {
    // "tokens" holds "token": one word, no action.
    expect(find("tokens-shop.com", "domain.wallet_lure")).toBeUndefined();
  });

  it("is high on its own", async () => {
    // The rule alone (the learned model, which reads it as a feature, is tested in its own files).
    const r = await createScreener({ domainModel: null }).screen("wallet-rectify.com");
    expect(r.ok && r.verdict.risk_level).toBe("high");
  });
});

describe("crypto vocabulary", () => {
  it.each([
    ["ethboom.io", "eth"], // a ticker leading a part
    ["bnbeth.net", "bnb"],
    ["get-ethers.com", "ethers"], // a whole part
    ["tslamusk.me", "musk"], // a figure fake giveaways invoke
    ["btcandeth.com", "btc"],
    ["satoshi-vault.com", "satoshi"],
    ["myethereumwwallet.com", "ethereum"], // a long term counts inside a part too
    ["nextbitcoinwallet.com", "bitcoin"],
  ])("%s uses %s", (input, term) => {
    const f = find(input, "domain.crypto_term");
    expect(f).toMatchObject({ family: "lexical", evidence: { term }, source: { name: "crypto-assets" } });
  });

  it.each([
    "ethics-board.org", // ordinary words that begin or end with a term
    "ethicalgifts.com",
    "together.com",
    "watermelon-farm.com",
    "elongatedgifts.com",
    "muskoka-cottages.ca",
    "automaticdoors.com",
    "definitelyfine.com",
    "cryptography.io",
    "methodfreight.com", // a term inside another word
    "coinbasepro.example.com", // part of a brand's own name: the impersonation detector judges it
    "localethereum.com",
    "mycryptographyclass.com", // a long term inside an ordinary word
    "mylocalbitcoinsfan.com", // inside a brand's name (localbitcoins)
    "coinbáse.com", // the ASCII letters of a punycode label are not what people see
    "pneumatic-tools.com", // English words that begin or end with a term
    "definingmoments.com",
    "untethered.com",
  ])("%s does not count", (input) => {
    expect(find(input, "domain.crypto_term")).toBeUndefined();
  });

  it("is not counted again beside a giveaway or drainer finding that names the same word", () => {
    expect(find("eth-giveaway.com", "domain.crypto_term")).toBeUndefined();
    expect(find("nft-verify.com", "domain.crypto_term")).toBeUndefined();
  });

  it("is weak alone (low), and with a brand's name in an unofficial domain makes it high", async () => {
    // The rules alone (the learned model, which reads them as features, is tested in its own files).
    const s = createScreener({ domainModel: null });
    const alone = await s.screen("ethboom.io");
    expect(alone.ok && alone.verdict.risk_level).toBe("low");
    expect(alone.ok && alone.verdict.risk_score).toBeGreaterThan(0);
    const withBrand = await s.screen("binanceeth.org");
    expect(withBrand.ok && withBrand.verdict.risk_level).toBe("high");
    expect(withBrand.ok && withBrand.verdict.signals.map((x) => x.code)).toEqual(expect.arrayContaining(["domain.brand_in_name", "domain.crypto_term"]));
  });
});

describe("ordinary words are not crypto giveaway naming", () => {
  it.each(["ethereal-event.com", "tethered-gifts.com", "elongating-bonus.com", "dogmatic-giveaway.com"])("%s", (input) => {
    expect(find(input, "domain.crypto_giveaway")).toBeUndefined();
  });
});

it("every false friend fits the window ordinary words are looked for in (a longer one would be ignored)", () => {
  for (const a of cryptoAssets) for (const w of a.falseFriends) expect(w.length, w).toBeLessThanOrEqual(MAX_WORD);
});
