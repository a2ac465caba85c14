import type { ImpersonationIndex, TokenEntry } from "./build-index.js";
import type { Candidate } from "./candidate.js";
import type { HostView } from "./host-view.js";
import { tokenIdOf } from "./label-match.js";
import { GENERIC_COUNTRY_CODES, TLD_SWAP_STRENGTH } from "./policy.js";

/**
 * Country-code suffixes ("de", "co.uk"): brands often own their name there, so a swap is
 * weaker evidence. Not the country codes sold as generic names, where brands rarely bother
 * and scams abound.
 */
const isCountryCode = (suffix: string): boolean => {
  const tld = suffix.slice(suffix.lastIndexOf(".") + 1);
  return tld.length === 2 && !(suffix === tld && GENERIC_COUNTRY_CODES.has(tld));
};

/**
 * "paypal.xyz": the exact distinctive token, on a suffix none of the brand's official domains
 * use. On one they do use ("appleid.com" for Apple, on .com like apple.com) it is more likely
 * a brand domain our data lacks; brand-parts reports that as a weaker brand_in_name.
 */
export function tldSwap(view: HostView, index: ImpersonationIndex, labelHash?: number): Candidate | null {
  const id = tokenIdOf(view.label, index, labelHash);
  if (id === undefined || view.privateSuffix) return null;
  const entry = index.tokens[id] as TokenEntry;
  if (entry.short || entry.brandSuffixes.has(view.suffix)) return null;
  const strength = isCountryCode(view.suffix) ? TLD_SWAP_STRENGTH.countryCode : TLD_SWAP_STRENGTH.generic;
  return { entry, technique: "tld-swap", distance: 0, strength, seen: view.label, detail: `same name on .${view.suffix}` };
}

