import { countryCallingCodeOf, parseEntity, type Finding } from "@svc/core";
import { fetchJson, ProviderError, type ProviderAdapter, type ProviderIo } from "./framework.js";

const trimBase = (u: string): string => (u.endsWith("/") ? u.slice(0, -1) : u);
const text = (v: unknown): string | null => (typeof v === "string" && v.length > 0 && v !== "N/A" ? v.slice(0, 120) : null);

/**
 * IPQualityScore phone validation (`GET /api/json/phone/{key}/{number}`, the key in the path as
 * the API requires): fraud score and recent abuse, VoIP, an inactive line, and where the carrier's
 * country differs from the one the number's plan belongs to. Line type and carrier are a 0-point fact.
 */
export function ipqsPhoneAdapter(opts: { key: string; baseUrl?: string | undefined; strictness?: 0 | 1 | 2 }): ProviderAdapter {
  const base = trimBase(opts.baseUrl ?? "https://www.ipqualityscore.com");
  const source = { name: "ipqualityscore", version: "phone-v1" };
  const ask = async (e164: string, io: ProviderIo): Promise<Record<string, unknown>> => {
    const url = `${base}/api/json/phone/${encodeURIComponent(opts.key)}/${encodeURIComponent(e164.replace(/^\+/, ""))}?strictness=${opts.strictness ?? 0}`;
    const answer = (await fetchJson(io, "ipqualityscore", url, { headers: { accept: "application/json" } })) as Record<string, unknown> | null;
    if (answer === null || typeof answer !== "object") throw new ProviderError("malformed", "ipqualityscore answered JSON without a success field", false);
    // Errors come with HTTP 200: `success: false` and a message (a bad key, no credits left).
    if (answer.success === false) throw new ProviderError("http_status", `ipqualityscore refused: ${String(answer.message ?? "no reason").slice(0, 120)}`, false);
    if (answer.success !== true || typeof answer.fraud_score !== "number") throw new ProviderError("malformed", "ipqualityscore answered JSON without success and fraud_score", false);
    return answer;
  };
  return {
    name: "ipqualityscore",
    types: ["phone"],
    async lookup(query, io) {
      const parsed = parseEntity(query.value, { type: "phone" });
      if (!parsed.ok) return [];
      const a = await ask(parsed.entity.value, io);
      const planCountry = typeof parsed.entity.attributes.country === "string" ? parsed.entity.attributes.country : null;
      const country = text(a.country)?.toUpperCase() ?? null;
      const score = Math.max(0, Math.min(100, a.fraud_score as number));
      const findings: Finding[] = [{
        code: "reputation.phone_line",
        family: "reputation",
        message: `IPQualityScore: ${text(a.line_type) ?? "unknown line type"}${text(a.carrier) ? ` with ${text(a.carrier)}` : ""}${country ? ` in ${country}${text(a.region) ? ` (${text(a.region)})` : ""}` : ""}; fraud score ${score}`,
        evidence: {
          line_type: text(a.line_type), carrier: text(a.carrier), country, region: text(a.region), fraud_score: score,
          voip: a.VOIP === true, prepaid: a.prepaid === true, active: typeof a.active === "boolean" ? a.active : null, recent_abuse: a.recent_abuse === true,
        },
        source,
      }];
      // IPQS's own reading: 75+ suspicious, 85+ risky, 90+ recent abuse; recent_abuse and risky are its flags.
      if (score >= 75 || a.recent_abuse === true || a.risky === true) {
        findings.push({
          code: "reputation.phone_risky",
          family: "reputation",
          message: `IPQualityScore rates this number's fraud risk at ${score}/100${a.recent_abuse === true ? ", with recent abuse" : ""}${a.risky === true ? ", flagged as risky (scams, robocalls, fake accounts)" : ""}`,
          evidence: { fraud_score: score, recent_abuse: a.recent_abuse === true, risky: a.risky === true },
          source,
          strength: Math.max(score / 100, a.recent_abuse === true ? 0.9 : a.risky === true ? 0.75 : 0),
        });
      }
      if (a.VOIP === true && parsed.entity.attributes.number_type !== "voip") {
        findings.push({ code: "reputation.phone_voip", family: "reputation", message: "IPQualityScore says this is a VoIP number (cheap to get, easy to discard), which its numbering plan does not show", evidence: { carrier: text(a.carrier) }, source });
      }
      if (a.active === false) {
        findings.push({ code: "reputation.phone_inactive", family: "reputation", message: "IPQualityScore says this number is not an active line: no one answers it", evidence: { active_status: text(a.active_status) }, source });
      }
      // Territories that share a plan (GB and GG, US and PR) are not a mismatch: only another calling code is.
      const callingCode = String(parsed.entity.attributes.country_calling_code ?? "");
      if (country && planCountry && country !== planCountry && countryCallingCodeOf(country) !== null && countryCallingCodeOf(country) !== callingCode) {
        findings.push({
          code: "reputation.phone_region_mismatch",
          family: "reputation",
          message: `The number belongs to ${planCountry}'s numbering plan (+${callingCode}), but its carrier is in ${country}: a forwarded or virtual number`,
          evidence: { plan_country: planCountry, carrier_country: country, calling_code: callingCode },
          source,
        });
      }
      return findings;
    },
    async probe(io) {
      const a = await ask("+18007267864", io);
      return `reachable, key accepted (fraud score of a test number: ${String(a.fraud_score)})`;
    },
  };
}
