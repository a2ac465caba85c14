import { describe, expect, it } from "vitest";
import { defaultReference } from "../../screener.js";
import { graphFindings, reportFindings } from "./community.js";
import { emailFindings } from "./email.js";
import { intelFindings } from "./intel.js";
import { networkFindings } from "./network.js";
import { phoneFindings } from "./phone.js";
import { entity } from "./test-helpers.js";

const ref = defaultReference();

describe("e-mail", () => {
  const codes = (s: string) => emailFindings(entity(s), ref).map((f) => f.code);
  it.each([
    ["someone@mailinator.com", ["email.disposable"]],
    ["alice@gmail.com", ["email.free_mail"]],
    ["binance.support@gmail.com", ["email.free_mail", "email.brand_on_free_mail"]],
    ["paypalservice@outlook.com", ["email.free_mail", "email.brand_on_free_mail"]],
    ["pay.pal-help@gmail.com", ["email.free_mail", "email.brand_on_free_mail"]],
    ["metamask_team2@yahoo.com", ["email.free_mail", "email.brand_on_free_mail"]],
    ["papaya.lover@gmail.com", ["email.free_mail"]],
    ["alice@company-example.com", []],
    ["support@paypal.com", []],
  ])("%s → %j", (input, expected) => expect(codes(input)).toEqual(expected));
  it("explains which domain the brand really uses", () => {
    const f = emailFindings(entity("binance.support@gmail.com"), ref).find((x) => x.code === "email.brand_on_free_mail");
    expect(f?.message).toContain("Binance");
    expect(f?.evidence.official_domains).toContain("binance.com");
  });
});

describe("IP ranges", () => {
  it.each([
    ["10.0.0.1", "private"], ["127.0.0.1", "loopback"], ["169.254.169.254", "linkLocal"], ["100.64.0.1", "carrierGradeNat"], ["0.0.0.0", "unspecified"], ["240.0.0.1", "reserved"],
  ])("%s is %s", (ip, range) => {
    expect(networkFindings(entity(ip))[0]).toMatchObject({ code: "ip.non_public", evidence: { range } });
  });
  it("public unicast has no finding", () => expect(networkFindings(entity("8.8.8.8"))).toEqual([]));
});

describe("phone", () => {
  it.each([
    ["+1 900 555 0199", "phone.premium_rate"],
    ["+44 909 879 0000", "phone.premium_rate"],
    ["+1 555 012 3456", "phone.invalid"],
    ["+34 901 123 456", "phone.shared_cost"],
    ["+44 56 1234 5678", "phone.voip"],
    ["+44 70 3123 4567", "phone.personal_number"],
    ["+1 800 555 0100", "phone.toll_free"],
  ])("%s → %s", (n, code) => expect(phoneFindings(entity(n)).map((f) => f.code)).toEqual([code]));
  it("an ordinary valid number has none", () => expect(phoneFindings(entity("+33 6 12 34 56 78"))).toEqual([]));
});

describe("intel", () => {
  const m = (list: "allow" | "block", matched_on: "exact" | "parent", value = "evil.com", source = "feed") =>
    ({ type: "domain" as const, value, list, label: list === "block" ? "phishing" : "official", source, matched_on, matched_value: value });
  it("allowlist first", () => {
    expect(intelFindings([m("block", "exact"), m("allow", "exact")], () => false).map((f) => f.code)).toEqual(["intel.allowlisted"]);
  });
  it("exact block beats parent block", () => {
    expect(intelFindings([m("block", "parent"), m("block", "exact")], () => false)[0]?.code).toBe("intel.blocklisted");
    expect(intelFindings([m("block", "parent")], () => false)[0]?.code).toBe("intel.blocklisted_parent");
  });
  it("names each other list once, never the list the finding already names", () => {
    // One feed listing the same account twice (as it reads in Polkadot and in Kusama form), and a second list.
    const [f] = intelFindings([m("block", "exact", "15oF4u", "feed:dot"), m("block", "exact", "HNZata", "feed:dot"), m("block", "parent", "evil.com", "soc"), m("block", "exact", "x", "soc")], () => false);
    expect(f?.evidence).toMatchObject({ list: "feed:dot", matched_value: "15oF4u", other_lists: ["soc"] });
    expect(intelFindings([m("block", "exact", "15oF4u", "feed:dot"), m("block", "exact", "HNZata", "feed:dot")], () => false)[0]?.evidence.other_lists).toEqual([]);
  });
  it("an allowlisted parent that hosts user content does not vouch for its sub-domains", () => {
    expect(intelFindings([m("allow", "parent", "github.io")], (d) => d === "github.io")).toEqual([]);
  });
});

describe("reports and graph", () => {
  it("weights reports with saturation and notes disputes", () => {
    const weak = reportFindings({ reporters: 1, weighted: 0.3, false_positive_reports: 0, categories: ["phishing"], newest_at: null, version: "2026-10-29T00:00:00.000Z" });
    const strong = reportFindings({ reporters: 5, weighted: 4, false_positive_reports: 1, categories: ["phishing"], newest_at: "2026-10-30T00:00:00Z", version: "2026-10-31T00:00:00.000Z" });
    expect(weak[0]!.strength!).toBeLessThan(strong[0]!.strength!);
    expect(strong.map((f) => f.code)).toEqual(["reports.community", "reports.disputed"]);
    expect(reportFindings(null)).toEqual([]);
    // The version is when the counted reports last changed, never a placeholder.
    expect(strong.map((f) => f.source.version)).toEqual(["2026-10-31T00:00:00.000Z", "2026-10-31T00:00:00.000Z"]);
  });
  it("explains the nearest path and decays by hop", () => {
    const evidence = { blocklisted_by: ["urlhaus"], confirmed_reports: 2, as_of: "2026-10-30T00:00:00.000Z" };
    const one = graphFindings([{ nodes: ["domain:a.com", "domain:bad.com"], relations: ["reported_with"], risk_score: 95, evidence }]);
    const two = graphFindings([{ nodes: ["domain:a.com", "domain:b.com", "domain:bad.com"], relations: ["redirects_to", "same_wallet"], risk_score: 95, evidence }]);
    expect(one[0]!.message).toBe("Linked to domain:bad.com (blocklisted by urlhaus, 2 confirmed reports: risk 95) by reported_with");
    // The version of the finding is the date of the evidence it rests on, not a moving label.
    expect(one[0]!.source).toEqual({ name: "entity-graph", version: "2026-10-30T00:00:00.000Z" });
    expect(two[0]!.message).toContain("redirects_to → same_wallet");
    expect(two[0]!.strength!).toBeLessThan(one[0]!.strength!);
  });
});
