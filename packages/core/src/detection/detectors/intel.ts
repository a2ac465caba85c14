import type { IntelMatch } from "../../ports/intel.js";
import type { Finding } from "../types.js";

/**
 * Curated lists: allowlist first (an official entity stays official whatever else fires), then
 * blocklist (an exact hit weighs more than a listed parent domain).
 */
export function intelFindings(matches: readonly IntelMatch[], userContent: (value: string) => boolean): Finding[] {
  // A parent on the allowlist does not vouch for a host where anyone can publish.
  const allow = matches.filter((m) => m.list === "allow" && !(m.matched_on === "parent" && userContent(m.matched_value)));
  if (allow.length > 0) {
    const m = allow[0] as IntelMatch;
    return [{
      code: "intel.allowlisted",
      family: "intel",
      message: m.matched_on === "exact" ? `On the allowlist: ${m.label}` : `Part of ${m.matched_value}, which is on the allowlist: ${m.label}`,
      evidence: { list: m.source, label: m.label, matched_value: m.matched_value, matched_on: m.matched_on },
      source: { name: m.source, version: versionOf(m) },
      ...(m.added_at ? { observed_at: m.added_at } : {}),
    }];
  }
  const block = matches.filter((m) => m.list === "block");
  if (block.length === 0) return [];
  const best = block.find((m) => m.matched_on === "exact") ?? (block[0] as IntelMatch);
  const exact = best.matched_on === "exact";
  return [{
    code: exact ? "intel.blocklisted" : "intel.blocklisted_parent",
    family: "intel",
    message: exact ? `Listed as ${best.label} by ${best.source}` : `${best.matched_value}, which this is part of, is listed as ${best.label} by ${best.source}`,
    evidence: { list: best.source, label: best.label, matched_value: best.matched_value, matched_on: best.matched_on, other_lists: [...new Set(block.map((m) => m.source))].filter((s) => s !== best.source) },
    source: { name: best.source, version: versionOf(best) },
    ...(best.added_at ? { observed_at: best.added_at } : {}),
  }];
}

/** The data set's version, else the day the entry was added, else "undated" — never a word that passes for a version. */
const versionOf = (m: IntelMatch): string => m.version ?? m.added_at?.slice(0, 10) ?? "undated";
