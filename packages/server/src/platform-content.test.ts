import { VerdictSchema } from "@svc/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./test-support.js";

const engines = (["pglite", "postgres"] as const).filter((e) => e === "pglite" || process.env.TEST_DATABASE_URL);

/** URLs on allowlisted platforms whose content is someone else's: none may be "allow, high confidence". */
const USER_CONTENT = [
  "https://x.com/paypal_support",
  "https://www.google.com/url?q=https://paypa1.com/login",
  "https://l.facebook.com/l.php?u=https%3A%2F%2Fpaypa1.com%2F",
  "https://sites.google.com/view/paypal-verify-account",
  "https://www.dropbox.com/s/abc123/metamask-seed-recovery.html?dl=0",
  "https://ipfs.io/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/wallet-connect.html",
  "https://cloudflare-ipfs.com/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/wallet-connect.html",
];

describe.each(engines)("platform content through the API on %s", (engine) => {
  let api: TestApi;
  let key = "";
  beforeAll(async () => {
    api = await startTestApi(engine);
    ({ key } = await api.account("pro"));
  }, 120_000);
  afterAll(async () => api?.close());

  const screen = async (value: string) => {
    const res = await api.app.request("/v1/screen", { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ entity_value: value }) });
    expect(res.status, value).toBe(200);
    return VerdictSchema.parse(await res.json());
  };

  it.each(USER_CONTENT)("%s is not allowed with high confidence by the platform's allowlisting", async (value) => {
    const v = await screen(value);
    expect(v.recommended_action === "allow" && v.confidence === "high", `${value}: ${v.recommended_action} ${v.confidence}`).toBe(false);
    expect(v.signals.map((s) => s.code)).not.toContain("intel.allowlisted");
  });

  it("https://x.com/paypal_support scores what x:@paypal_support scores", async () => {
    const [url, account] = [await screen("https://x.com/paypal_support"), await screen("x:@paypal_support")];
    expect(account.risk_score).toBeGreaterThan(30);
    expect(url.risk_score).toBe(account.risk_score);
    expect(url.risk_level).toBe(account.risk_level);
    expect(url.signals.map((s) => s.code)).toEqual(expect.arrayContaining(account.signals.map((s) => s.code)));
  });

  it("the unwrapped target's signals are in the redirect's verdict", async () => {
    const v = await screen("https://www.google.com/url?q=https://paypa1.com/login");
    expect(v.signals.map((s) => s.code)).toEqual(expect.arrayContaining(["url.redirect_target", "domain.lookalike_brand"]));
  });

  it.each(["https://www.google.com/search?q=x", "https://www.dropbox.com/pricing", "https://x.com/home"])("%s, the platform's own page, stays allowed", async (value) => {
    const v = await screen(value);
    expect(v.recommended_action).toBe("allow");
    expect(v.signals.map((s) => s.code)).toContain("intel.allowlisted");
  });
});
