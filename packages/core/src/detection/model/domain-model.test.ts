import { describe, expect, it } from "vitest";
import { createScreener, defaultReference } from "../../screener.js";
import { buildFeatureSpace, checkScoreMap, compileKnots, decodeWeights, describeReason, encodeWeights, logitOf, mapScore, reasonDescriptions, scoreHost, type DomainModel } from "./domain-model.js";
import { extract, HASHED, ownName, platformOf, type HostView, type RuleFinding } from "./features.js";

const space = buildFeatureSpace(
  ["lure:claim", "project:foreign", "project:own", "project:foreign+lure", "tld:xyz", "hosting:any", "hosting:vercel.app", "num:digits", "rule:domain.lookalike_brand", "rule:domain.model_risk", "bias"],
  ["claim", "airdrop", "verify"],
  [{ names: ["zksync"], domains: ["zksync.io"] }],
  ["weebly.com"],
);
const view = (host: string, registered: string, suffix: string, privateSuffix = false): HostView => ({ host, registered, suffix, tld: suffix.split(".").pop() as string, privateSuffix });
const namedOf = (v: HostView, rules: readonly RuleFinding[] = []): string[] => {
  const f = extract(v, rules, space);
  const names = [...space.named].map(([k, i]) => [i, k] as const);
  const out: string[] = [];
  for (let i = 0; i < f.length; i++) if ((f.index[i] as number) >= HASHED) out.push(names.find(([j]) => j === f.index[i])?.[1] as string);
  return out;
};

describe("feature extraction", () => {
  it("finds lure words and projects' names written together, and tells whose domain it is", () => {
    expect(namedOf(view("zksyncclaim.xyz", "zksyncclaim.xyz", "xyz"))).toEqual(expect.arrayContaining(["lure:claim", "project:foreign", "project:foreign+lure", "tld:xyz"]));
    const own = namedOf(view("zksync.io", "zksync.io", "io"));
    expect(own).toContain("project:own");
    expect(own).not.toContain("project:foreign");
    expect(namedOf(view("claims-portal.com", "claims-portal.com", "com"))).toContain("lure:claim");
    expect(namedOf(view("proclaimed.com", "proclaimed.com", "com"))).toContain("lure:claim"); // a word piece, not a whole word: the weights judge it
  });

  it("judges a user's site on a hosting platform by its own label; the platform's own domain is a name like any other", () => {
    const user = view("claim-zksync.vercel.app", "claim-zksync.vercel.app", "vercel.app", true);
    expect(platformOf(user, space)).toBe("vercel.app");
    expect(ownName(user, "vercel.app")).toBe("claim-zksync");
    expect(namedOf(user)).toEqual(expect.arrayContaining(["hosting:any", "hosting:vercel.app", "lure:claim", "project:foreign"]));
    const listed = view("a.claim-x.weebly.com", "weebly.com", "com");
    expect(platformOf(listed, space)).toBe("weebly.com");
    expect(ownName(listed, "weebly.com")).toBe("a.claim-x");
    const platform = view("webflow.io", "webflow.io", "io");
    expect(platformOf(platform, space)).toBeNull();
    expect(namedOf(platform)).not.toContain("hosting:any");
  });

  it("weighs a name's character n-grams as one unit vector, and reads rule findings by strength", () => {
    for (const host of ["ab.com", "averyveryverylongnameindeed.com"]) {
      const f = extract(view(host, host, "com"), [], space);
      let sq = 0;
      for (let i = 0; i < f.length; i++) if ((f.index[i] as number) < HASHED) sq += (f.value[i] as number) ** 2;
      expect(sq).toBeCloseTo(1, 5);
    }
    const f = extract(view("paypa1.com", "paypa1.com", "com"), [{ code: "domain.lookalike_brand", family: "impersonation", strength: 0.75 }], space);
    const i = space.named.get("rule:domain.lookalike_brand") as number;
    expect(f.value[Array.from(f.index).indexOf(i)]).toBeCloseTo(0.75);
    // One feature per code at its highest strength; other families' codes and the model's own finding are not read.
    const rules: RuleFinding[] = [
      { code: "domain.lookalike_brand", family: "impersonation", strength: 0.5 },
      { code: "intel.blocklisted", family: "intel" },
      { code: "domain.model_risk", family: "model", strength: 0.9 },
      { code: "domain.lookalike_brand", family: "impersonation", strength: 0.8 },
      { code: "domain.lookalike_brand", family: "impersonation", strength: 0.6 },
    ];
    const g = extract(view("paypa1.com", "paypa1.com", "com"), rules, space);
    const at = Array.from(g.index.subarray(0, g.length)).flatMap((x, k) => (x === i ? [k] : []));
    expect(at).toHaveLength(1);
    expect(g.value[at[0] as number]).toBeCloseTo(0.8);
    expect(namedOf(view("paypa1.com", "paypa1.com", "com"), [{ code: "domain.model_risk", family: "model" }])).not.toContain("rule:domain.model_risk");
  });
});

describe("the n-grams scored as they are hashed", () => {
  it("give the same logit, to the last bit, as the n-grams listed and summed one by one", () => {
    const model = defaultReference().domainModel as DomainModel;
    const words = ["secure", "login", "wallet", "claim", "airdrop", "meta", "coin", "swap", "defi", "nft", "x", "my", "verify"];
    let seed = 20261127;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const letters = (n: number): string => Array.from({ length: n }, () => String.fromCharCode(0x61 + next(26))).join("");
    const rules: RuleFinding[] = [{ code: "domain.suspicious_tld", family: "lexical", strength: 0.6 }, { code: "domain.risky_keyword", family: "lexical", strength: 0.9 }];
    for (let i = 0; i < 3000; i++) {
      const label = [words[next(words.length)], next(2) ? letters(1 + next(9)) : `${next(1000)}`, next(3) ? "" : `-${letters(2 + next(5))}`].join(next(2) ? "-" : "");
      const sub = next(4) === 0 ? `${letters(1 + next(12))}.` : "";
      const v = view(`${sub}${label}.xyz`, `${label}.xyz`, "xyz");
      expect(scoreHost(model, v, rules).logit).toBe(logitOf(model, v, rules));
    }
  });
});

describe("calibration mapping", () => {
  const knots: [number, number][] = [[-5, 0], [0, 30], [2, 65], [4, 85], [10, 100]];
  it("maps calibrated log-odds onto 0–100 monotonically through the knots", () => {
    expect(mapScore(-99, knots)).toBe(0);
    expect(mapScore(0, knots)).toBe(30);
    expect(mapScore(1, knots)).toBe(48);
    expect(mapScore(2, knots)).toBe(65);
    expect(mapScore(4, knots)).toBe(85);
    expect(mapScore(99, knots)).toBe(100);
    let last = -1;
    for (let t = -8; t <= 12; t += 0.25) {
      const s = mapScore(t, knots);
      expect(s).toBeGreaterThanOrEqual(last);
      last = s;
    }
    expect(mapScore(0, [])).toBe(50); // no knots: 100 × probability
  });
  it("refuses knots that do not increase", () => {
    expect(() => checkScoreMap([[0, 30], [0, 65]])).toThrow(/increase/);
    expect(() => checkScoreMap([[0, 65], [1, 30]])).toThrow(/increase/);
    expect(() => checkScoreMap([[0, 120]])).toThrow(/range/);
  });
  it("stores weights as int16 with a scale, within half a step", () => {
    const w = Float32Array.from([0, 1.5, -3, 0.001, 2.25]);
    const { weights, scale } = encodeWeights(w);
    const back = decodeWeights(weights, scale, w.length);
    for (let i = 0; i < w.length; i++) expect(Math.abs((back[i] as number) - (w[i] as number))).toBeLessThanOrEqual(scale / 2 + 1e-7);
    expect(() => decodeWeights(weights, scale, w.length + 1)).toThrow(/expected/);
  });
});

describe("explanations", () => {
  it("names the features that pushed the score, in plain words", () => {
    const weights = new Float32Array(HASHED + space.named.size);
    weights[space.named.get("lure:claim") as number] = 2;
    weights[space.named.get("project:foreign") as number] = 1.5;
    weights[space.named.get("tld:xyz") as number] = 0.5;
    weights[space.named.get("bias") as number] = -3;
    const names = [...space.named.keys()];
    const model: DomainModel = { version: "t", space, weights, names, a: 1, b: 0, scoreMap: [], knots: compileKnots([]), descriptions: reasonDescriptions(names) };
    const m = scoreHost(model, view("zksyncclaim.xyz", "zksyncclaim.xyz", "xyz"), []);
    expect(m.logit).toBeCloseTo(1, 5);
    expect(m.score).toBe(73);
    expect(m.reasons.map((r) => r.feature)).toEqual(["lure:claim", "project:foreign", "tld:xyz"]);
    expect(describeReason(m.reasons[0] as never, m.words)).toBe('the lure word "claim"');
    expect(describeReason(m.reasons[1] as never, m.words)).toBe('"zksync", a crypto project\'s name, on a domain the project does not own');
    expect(describeReason({ feature: "hosting:vercel.app", weight: 1 }, [])).toBe("a user's site on vercel.app");
  });
});

describe("the bundled model in the screener", () => {
  const s = createScreener();
  it("scores a claim page named after a project on a free host high, with its reasons as the message", async () => {
    const r = await s.screen("claim-zksync.vercel.app");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.verdict.risk_score).toBeGreaterThanOrEqual(65);
    const sig = r.verdict.signals.find((x) => x.code === "domain.model_risk");
    expect(sig?.points).toBe(r.verdict.risk_score);
    expect(sig?.message).toMatch(/^Learned name model: scores the name \d+ of 100/);
    expect(sig?.message).toMatch(/because of/);
    expect(sig?.source.name).toBe("domain-model");
    expect(r.data_versions["domain-model"]).toMatch(/^\d{4}\.\d+\.\d+$/);
  });
  it("gives a hosting platform's own domain a verdict, and leaves official domains low", async () => {
    const w = await s.screen("webflow.io");
    expect(w.ok && w.verdict.risk_level).toBe("low");
    const p = await s.screen("paypal.com");
    expect(p.ok && p.verdict.risk_level).toBe("low");
    expect(p.ok && p.verdict.signals.some((x) => x.code === "domain.model_risk")).toBe(false);
  });
  it("can be switched off: the rules alone", async () => {
    const r = await createScreener({ domainModel: null }).screen("claim-zksync.vercel.app");
    expect(r.ok && r.findings.some((f) => f.code === "domain.model_risk")).toBe(false);
  });
});

describe("the model's reasons for a user's site on a hosting platform", () => {
  it("name the platform's top-level domain as the platform's, not the site's choice", async () => {
    const screener = createScreener();
    for (const host of ["my-portfolio.vercel.app", "weather-app.netlify.app"]) {
      const r = await screener.screen(host);
      if (!r.ok) throw new Error(r.error.code);
      const model = r.findings.find((f) => f.code === "domain.model_risk");
      const reasons = (model?.evidence.reasons ?? []) as string[];
      const platform = host.slice(host.indexOf(".") + 1);
      expect(reasons.slice(0, 3)).toContain("tld:app");
      expect(model?.message).toContain(`${platform}'s .app top-level domain`);
      expect(model?.message).not.toContain("the .app top-level domain");
    }
    // A site's own top-level domain is still called its own.
    const own = await screener.screen("claim-rewards-portal.app");
    if (!own.ok) throw new Error(own.error.code);
    const ownModel = own.findings.find((f) => f.code === "domain.model_risk");
    if (((ownModel?.evidence.reasons ?? []) as string[]).slice(0, 3).includes("tld:app")) expect(ownModel?.message).toContain("the .app top-level domain");
  });
});
