import { describe, expect, it } from "vitest";
import { createScreener } from "../screener.js";
import { leadSignal } from "./lead-signal.js";

const s = (code: string, points: number) => ({ code, points, message: code });

describe("leadSignal", () => {
  it("is the strongest signal, zero-point ones included when nothing scores", () => {
    expect(leadSignal([s("domain.risky_keyword", 14), s("intel.blocklisted", 95), s("domain.model_risk", 94)])?.code).toBe("intel.blocklisted");
    expect(leadSignal([s("coverage.nothing_known", 0)])?.code).toBe("coverage.nothing_known");
    expect(leadSignal([])).toBeNull();
  });

  it("quotes a rule's finding of 30 points or more before the model's reading of the name", () => {
    expect(leadSignal([s("domain.model_risk", 98), s("domain.brand_embedding", 80), s("domain.combosquatting", 70)])?.code).toBe("domain.brand_embedding");
    expect(leadSignal([s("domain.model_risk", 99), s("domain.crypto_giveaway", 59), s("domain.free_hosting", 22)])?.code).toBe("domain.crypto_giveaway");
    // A weak rule finding does not: the model's score is the evidence.
    expect(leadSignal([s("domain.model_risk", 88), s("domain.risky_keyword", 11), s("domain.new_gtld", 8)])?.code).toBe("domain.model_risk");
  });

  it("on a real verdict, names the brand the name shows", async () => {
    const r = await createScreener().screen("secure-login-paypal.com.verify-account.xyz");
    if (!r.ok) throw new Error(r.error.message);
    expect(r.verdict.signals[0]?.code).toBe("domain.model_risk");
    expect(leadSignal(r.verdict.signals)?.message).toBe("Shows paypal.com in the name, but the site is really verify-account.xyz");
  });
});
