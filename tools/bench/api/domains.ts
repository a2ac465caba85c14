// Realistic, distinct domain names for the load: mostly ordinary names (small businesses, shops,
// blogs, SaaS), a quarter look-alikes of well-known brands (homoglyphs, typos, brand + keyword,
// brand as a sub-domain of a throw-away name), as a screening API sees them.

import { rng } from "../rng.js";

const ADJ = [
  "blue", "green", "red", "silver", "golden", "north", "south", "east", "west", "bright", "quiet", "happy", "little", "big", "urban",
  "rural", "modern", "classic", "smart", "swift", "clear", "fresh", "wild", "open", "true", "prime", "simple", "cosy", "bold", "lucky",
  "sunny", "misty", "maple", "cedar", "oak", "pine", "river", "lake", "harbor", "summit", "valley", "meadow", "stone", "iron", "copper",
];
const NOUN = [
  "bakery", "dental", "studio", "garden", "labs", "works", "media", "design", "consulting", "law", "clinic", "fitness", "yoga", "coffee",
  "books", "travel", "homes", "realty", "motors", "tech", "software", "cloud", "data", "analytics", "events", "photo", "films", "music",
  "kitchen", "pizza", "grill", "florist", "pets", "vet", "school", "academy", "tutors", "partners", "capital", "insurance", "plumbing",
  "roofing", "electric", "cleaning", "auto", "bikes", "outdoors", "supply", "market", "crafts", "wines", "brewing", "farm", "hotel",
];
const ORDINARY_TLDS = ["com", "com", "com", "com", "net", "org", "io", "co", "co.uk", "de", "fr", "nl", "com.au", "ca", "es", "it", "app", "dev", "shop", "blog"];
const SUBS = ["www", "shop", "blog", "mail", "app", "help", "store", "portal"];

const BRANDS: readonly (readonly string[])[] = [
  // brand, then look-alike spellings (homoglyphs, typos, swapped letters)
  ["paypal", "paypa1", "paypai", "paypall", "peypal", "pay-pal"],
  ["google", "g00gle", "gooogle", "googie", "goog1e"],
  ["microsoft", "rnicrosoft", "micros0ft", "microsofft", "mircosoft"],
  ["apple", "app1e", "appie", "aple", "apple-id"],
  ["amazon", "arnazon", "amaz0n", "amazom", "amazn"],
  ["netflix", "netfiix", "netf1ix", "netflx", "nettflix"],
  ["facebook", "faceb00k", "facebok", "faecbook"],
  ["instagram", "1nstagram", "instagrarn", "instagran"],
  ["binance", "blnance", "binanse", "bináncе"],
  ["coinbase", "c0inbase", "coinbasse", "coinbace"],
  ["metamask", "metarnask", "metamsk", "meta-mask"],
  ["chase", "chasse", "chace"],
  ["wellsfargo", "wellsfarg0", "wels-fargo"],
  ["dhl", "dhI", "dh1"],
  ["usps", "uspss", "usps-track"],
  ["outlook", "0utlook", "outl00k"],
  ["linkedin", "linkedln", "1inkedin"],
  ["dropbox", "dr0pbox", "dropb0x"],
  ["steam", "stearn", "steamcommunlty"],
  ["ledger", "1edger", "ledgerr"],
];
const KEYWORDS = [
  "login", "secure", "verify", "account", "support", "update", "billing", "wallet", "signin", "auth", "help", "service", "alert",
  "recovery", "unlock", "claim", "bonus", "gift", "refund", "invoice", "track", "delivery", "id", "access", "confirm", "security",
];
const SCAM_TLDS = ["com", "net", "xyz", "top", "online", "site", "info", "live", "app", "click", "shop", "support", "co", "io", "vip"];

/**
 * `count` distinct domain names, shuffled; about 75 % ordinary, 25 % look-alikes. Deterministic
 * for a seed, so every run screens the same traffic.
 */
export function realisticDomains(count: number, seed = 20261122): string[] {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)] as T;
  const seen = new Set<string>();
  const out: string[] = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 20) {
    let d: string;
    if (r() < 0.75) {
      const shape = r();
      const base = shape < 0.35 ? `${pick(ADJ)}${pick(NOUN)}` : shape < 0.7 ? `${pick(ADJ)}-${pick(NOUN)}` : shape < 0.85 ? `${pick(NOUN)}${pick(ADJ)}` : `${pick(ADJ)}${pick(NOUN)}${Math.floor(r() * 100)}`;
      const region = r() < 0.3 ? `-${pick(["london", "berlin", "austin", "paris", "oslo", "lyon", "leeds", "denver", "perth", "kyoto", "madrid", "porto"])}` : "";
      const sub = r() < 0.2 ? `${pick(SUBS)}.` : "";
      d = `${sub}${base}${region}.${pick(ORDINARY_TLDS)}`;
    } else {
      const brand = pick(BRANDS);
      const name = r() < 0.3 ? (brand[0] as string) : pick(brand.slice(1));
      const kw = pick(KEYWORDS);
      const shape = r();
      const num = r() < 0.35 ? `${Math.floor(r() * 1000)}` : "";
      d = shape < 0.3 ? `${name}-${kw}${num}.${pick(SCAM_TLDS)}`
        : shape < 0.55 ? `${kw}-${name}${num}.${pick(SCAM_TLDS)}`
          : shape < 0.75 ? `${name}.${kw}-${pick(KEYWORDS)}${num}.${pick(SCAM_TLDS)}`
            : shape < 0.9 ? `${name}${num}.${pick(SCAM_TLDS)}`
              : `${kw}.${name}-${pick(KEYWORDS)}${num}.${pick(SCAM_TLDS)}`;
    }
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(d);
  }
  return out;
}
