import type { Family, Severity, SignalCategory, Thresholds } from "./types.js";

/**
 * The versioned scoring rules. Each finding code has a weight in points (0–100): the risk that
 * this fact alone indicates. Points combine as independent evidence (noisy-OR) across detector
 * families, and damped within a family, whose total is capped where a family is only
 * circumstantial (lexical features alone never reach `high`).
 *
 * Weights were first set by hand and then checked (and where the data allowed, refitted) against
 * the labelled development corpus in tools/eval; see docs/detection.md. Changing any number here
 * is a new ruleset version, recorded in every verdict and audit record.
 */
export interface Rule {
  readonly points: number;
  readonly category: SignalCategory;
  /** Optional fixed severity; otherwise derived from the points actually awarded. */
  readonly severity?: Severity;
}

export interface Ruleset {
  readonly version: string;
  readonly rules: Readonly<Record<string, Rule>>;
  /** Highest score a family can contribute on its own (0–100). */
  readonly familyCaps: Readonly<Partial<Record<Family, number>>>;
  /** Weight of the 2nd, 3rd… finding of one family relative to the first (correlated evidence). */
  readonly withinFamilyDamping: number;
  /** Score ceiling for an entity on an allowlist (official domains stay `low` whatever else fires). */
  readonly allowlistedCeiling: number;
  /**
   * Score ceiling for a popular site's own name (`domain.popular_site`, decision 0051; and a hosting
   * platform's own domain, `domain.hosting_platform`, decision 0103): the name
   * evidence (model, look-alike and lexical name findings) is overridden, and only a block-list
   * entry lifts the ceiling. Absent: popular sites get no special treatment.
   */
  readonly popularCeiling?: number;
  readonly thresholds: Thresholds;
  /**
   * How the learned domain model's score meets the rest (decision 0023): "max" — the higher of the
   * model's and the other families' combined score; "name" — the model stands for the name
   * evidence (the lexical and impersonation families are its inputs) and is combined with the
   * rest; where the impersonation family fired, the rules' own reading of the name (impersonation
   * with the lexical signs beside it) stays a floor: a recognised look-alike of a brand is not
   * argued down by a model trained on other names.
   */
  readonly modelCombination?: "max" | "name";
}

export const RULESET: Ruleset = {
  // 2026.11.7: read with domain model 2026.11.2 (ordinary names weigh more in its training, decision 0078).
  // 2026.11.8: a hosting platform's own domain is read as a popular site's (decision 0103).
  version: "2026.11.8",
  thresholds: { review: 30, block: 85 },
  withinFamilyDamping: 0.5,
  allowlistedCeiling: 10,
  popularCeiling: 10,
  modelCombination: "name",
  familyCaps: { lexical: 55, network: 40, email: 60, phone: 60, reports: 70, graph: 60, reputation: 80 },
  rules: {
    // intel: curated lists
    "intel.blocklisted": { points: 95, category: "intel", severity: "critical" },
    "intel.blocklisted_parent": { points: 90, category: "intel", severity: "critical" },
    "intel.allowlisted": { points: 0, category: "intel", severity: "info" },
    "domain.popular_site": { points: 0, category: "intel", severity: "info" },
    "domain.hosting_platform": { points: 0, category: "intel", severity: "info" },
    // impersonation of brands
    "domain.lookalike_brand": { points: 75, category: "impersonation" },
    "domain.homograph": { points: 80, category: "impersonation" },
    "domain.brand_embedding": { points: 80, category: "impersonation" },
    "domain.combosquatting": { points: 70, category: "impersonation" },
    "domain.brand_in_subdomain": { points: 55, category: "impersonation" },
    "domain.brand_in_name": { points: 62, category: "impersonation" },
    "domain.crypto_giveaway": { points: 65, category: "impersonation" },
    "domain.wallet_lure": { points: 65, category: "impersonation" },
    // lexical features of hosts and URLs
    "domain.suspicious_tld": { points: 28, category: "lexical" },
    "domain.risky_keyword": { points: 22, category: "lexical" },
    "domain.many_hyphens": { points: 12, category: "lexical" },
    "domain.many_digits": { points: 10, category: "lexical" },
    "domain.deep_subdomains": { points: 12, category: "lexical" },
    "domain.long_name": { points: 8, category: "lexical" },
    "domain.high_entropy": { points: 15, category: "lexical" },
    "domain.punycode": { points: 15, category: "lexical" },
    "domain.crypto_term": { points: 22, category: "lexical" },
    "domain.free_hosting": { points: 22, category: "lexical" },
    "domain.new_gtld": { points: 8, category: "lexical" },
    // the learned domain model: its points are its calibrated probability × 100 (decision 0023)
    "domain.model_risk": { points: 100, category: "lexical" },
    "entity.hidden_characters": { points: 40, category: "lexical" },
    "url.ip_literal_host": { points: 35, category: "lexical" },
    "url.ip_obfuscated": { points: 50, category: "lexical" },
    "url.userinfo_deception": { points: 55, category: "lexical" },
    "url.userinfo_brand": { points: 80, category: "impersonation" },
    "url.shortener": { points: 20, category: "lexical" },
    "url.nonstandard_port": { points: 10, category: "lexical" },
    "url.risky_path_keyword": { points: 12, category: "lexical" },
    // platforms that host other people's content (set by hand: see docs/detection.md)
    "url.user_content": { points: 0, category: "intel", severity: "info" },
    "url.content_brand": { points: 70, category: "impersonation" },
    "url.content_wallet_lure": { points: 65, category: "impersonation" },
    "url.redirect_target": { points: 0, category: "lexical", severity: "info" },
    "url.redirect_unreadable": { points: 20, category: "lexical" },
    "url.redirect_too_deep": { points: 30, category: "lexical" },
    "url.social_profile": { points: 0, category: "social", severity: "info" },
    "domain.brand_short_domain": { points: 0, category: "lexical", severity: "info" },
    // wallets
    "wallet.invalid_checksum": { points: 35, category: "wallet" },
    "wallet.address_poisoning": { points: 80, category: "wallet" },
    // e-mail
    "email.disposable": { points: 45, category: "email" },
    "email.free_mail": { points: 5, category: "email", severity: "info" },
    "email.brand_on_free_mail": { points: 55, category: "email" },
    "email.brand_local_part": { points: 35, category: "email" },
    // network
    "ip.non_public": { points: 25, category: "network" },
    // phone
    "phone.invalid": { points: 40, category: "phone" },
    "phone.premium_rate": { points: 55, category: "phone" },
    "phone.shared_cost": { points: 30, category: "phone" },
    "phone.voip": { points: 20, category: "phone" },
    "phone.personal_number": { points: 30, category: "phone" },
    "phone.toll_free": { points: 0, category: "phone", severity: "info" },
    // social accounts
    "social.official_handle": { points: 0, category: "social", severity: "info" },
    "social.handle_lookalike": { points: 70, category: "social" },
    "social.impersonation_decoration": { points: 75, category: "social" },
    // community and graph
    "reports.community": { points: 60, category: "reports" },
    "reports.disputed": { points: 0, category: "reports", severity: "info" },
    "graph.linked_to_bad": { points: 55, category: "graph" },
    // outside reputation providers (docs/providers.md): facts are 0-point info signals; a
    // domain's age only ever adds risk (an old domain is not thereby safe)
    "reputation.domain_registered": { points: 0, category: "reputation", severity: "info" },
    "reputation.domain_new": { points: 55, category: "reputation" },
    "reputation.domain_on_hold": { points: 50, category: "reputation" },
    "reputation.domain_no_mail": { points: 30, category: "reputation" },
    "reputation.domain_unresolvable": { points: 20, category: "reputation" },
    "reputation.dns_records": { points: 0, category: "reputation", severity: "info" },
    "reputation.url_listed": { points: 90, category: "reputation" },
    "reputation.ip_abuse_reports": { points: 80, category: "reputation" },
    "reputation.ip_tor_exit": { points: 20, category: "reputation" },
    "reputation.ip_asn": { points: 0, category: "reputation", severity: "info" },
    "reputation.ip_hosting": { points: 20, category: "reputation" },
    // wallets: reports weigh by how vetted they are; a new address adds a little, an old one nothing
    "reputation.wallet_reports": { points: 75, category: "reputation" },
    "reputation.wallet_first_seen": { points: 0, category: "reputation", severity: "info" },
    "reputation.wallet_new": { points: 25, category: "reputation" },
    "reputation.wallet_no_transactions": { points: 10, category: "reputation" },
    // phones (an outside validation service)
    "reputation.phone_line": { points: 0, category: "reputation", severity: "info" },
    "reputation.phone_risky": { points: 75, category: "reputation" },
    "reputation.phone_voip": { points: 20, category: "reputation" },
    "reputation.phone_inactive": { points: 30, category: "reputation" },
    "reputation.phone_region_mismatch": { points: 25, category: "reputation" },
    // coverage notes
    "coverage.nothing_known": { points: 0, category: "coverage", severity: "info" },
    "coverage.source_unavailable": { points: 0, category: "coverage", severity: "info" },
  },
};

/** Points to severity, for rules without a fixed severity. */
export function severityFor(points: number): Severity {
  if (points >= 85) return "critical";
  if (points >= 65) return "high";
  if (points >= 30) return "medium";
  if (points > 0) return "low";
  return "info";
}
