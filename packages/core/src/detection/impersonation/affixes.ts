/**
 * Words glued to a brand name that make "brand+word" read as the brand's own product or
 * site ("binanceus", "coinbasepro", "metamaskapp"). A distinctive token followed or preceded
 * by one of these counts as the brand; by any other word it does not, because compounds such
 * as "amazonas" (a Brazilian state) or "googleplex" are names in their own right.
 * Risky keywords ("paypalsecure") are matched separately and also count.
 */
export const BRAND_AFFIXES: ReadonlySet<string> = new Set([
  "app", "apps", "us", "uk", "eu", "io", "pro", "web", "online", "site", "net", "com", "org",
  "official", "global", "hq", "portal", "swap", "dex", "token", "nft", "defi", "mobile",
  "extension", "download", "auth", "id", "my", "get", "go", "www",
]);

/**
 * Decorations impostor social accounts wrap around a brand name: `binance_support`,
 * `realmetamask`, `coinbasehelp247`. `strong` ones read as a claim to speak for the brand even
 * glued to an ordinary-word brand ("applesupport"); weak ones ("the", "real") only count
 * next to a distinctive token or with a separator.
 */
const STRONG_DECORATIONS = [
  "support", "official", "help", "helpdesk", "verify", "verified", "admin", "care", "service", "services", "customer",
  "customercare", "customerservice", "assist", "assistance", "desk", "giveaway", "airdrop", "promo", "rewards",
  "refund", "recovery", "security", "mod", "mods", "moderator", "ceo", "founder",
];
const WEAK_DECORATIONS = [
  "real", "the", "team", "hq", "info", "news", "live", "global", "app", "io", "us", "uk", "inc", "com", "my", "is",
  "here", "online", "line",
];
export const HANDLE_DECORATIONS: ReadonlyMap<string, { readonly strong: boolean }> = new Map<string, { readonly strong: boolean }>([
  ...STRONG_DECORATIONS.map((w) => [w, { strong: true }] as const),
  ...WEAK_DECORATIONS.map((w) => [w, { strong: false }] as const),
]);
