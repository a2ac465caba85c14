import { z } from "zod";

/**
 * zod schemas for the curated data files in ../data. Every file is validated when the module
 * loads, so a malformed edit fails loudly at start-up (and in the tests) instead of silently
 * weakening detection.
 */

export const BRAND_CATEGORIES = [
  "bank",
  "payments",
  "crypto",
  "tech",
  "email",
  "gaming",
  "shipping",
  "government",
  "social",
  "telecom",
  "airline",
  "streaming",
  "ecommerce",
  "travel",
] as const;
export type BrandCategory = (typeof BRAND_CATEGORIES)[number];

/** Same ids as the social platforms of `@svc/core` (entities/social.ts). */
export const SOCIAL_PLATFORMS = [
  "x",
  "instagram",
  "facebook",
  "telegram",
  "tiktok",
  "youtube",
  "discord",
  "github",
  "reddit",
  "linkedin",
] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

export const KEYWORD_CATEGORIES = ["credential", "crypto", "urgency", "support", "reward"] as const;
export type KeywordCategory = (typeof KEYWORD_CATEGORIES)[number];

/** Tokens shorter than this must be marked `short` (exact-label match only). */
export const MIN_FUZZY_TOKEN_LENGTH = 4;

/** A lower-case ASCII domain with at least two labels: `a.b`, labels 1–63 chars, no edge hyphens. */
export const DOMAIN_RE = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOKEN_RE = /^[a-z0-9]+$/;
const HANDLE_RE = /^[a-z0-9._-]{1,100}$/;

const domain = z.string().regex(DOMAIN_RE, "must be a lower-case ASCII domain name");
const header = {
  source: z.string().min(1),
  version: z.string().regex(/^\d{4}\.\d{1,2}\.\d+$/, "must be a calendar version like 2026.11.1"),
  licence: z.string().min(1),
};
const rationale = z.string().min(10).refine((s) => s.trim() === s, "must not have surrounding spaces");
const weight = z.number().min(0).max(1);

const token = z.union([
  z
    .string()
    .regex(TOKEN_RE, "tokens are lower-case ASCII letters and digits")
    .refine((t) => t.length >= MIN_FUZZY_TOKEN_LENGTH, {
      message: `tokens shorter than ${MIN_FUZZY_TOKEN_LENGTH} characters must be written {"token": "...", "short": true}`,
    }),
  z.strictObject({
    token: z.string().regex(TOKEN_RE).min(2),
    short: z.literal(true),
    /** An ordinary word whose misspellings are not words ("blockchein"): typos count as look-alikes, the word itself only whole. */
    typos: z.literal(true).optional(),
  }),
]);

const handles = z.strictObject(
  Object.fromEntries(SOCIAL_PLATFORMS.map((p) => [p, z.array(z.string().regex(HANDLE_RE)).default([])])) as {
    [K in SocialPlatform]: z.ZodDefault<z.ZodArray<z.ZodString>>;
  },
);

export const brandEntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+$/),
  name: z.string().min(1),
  category: z.enum(BRAND_CATEGORIES),
  tokens: z.array(token).min(1),
  official_domains: z.array(domain).min(1),
  /** Owned by the brand, but third parties publish content or redirects there (t.me, github.io ...). */
  user_content_domains: z.array(domain).default([]),
  official_handles: handles.prefault({}),
});

export const brandsFileSchema = z
  .strictObject({ ...header, brands: z.array(brandEntrySchema).min(1) })
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    const tokens = new Map<string, string>();
    file.brands.forEach((b, i) => {
      if (ids.has(b.id)) ctx.addIssue({ code: "custom", path: ["brands", i, "id"], message: `duplicate brand id "${b.id}"` });
      ids.add(b.id);
      for (const t of b.tokens) {
        const tok = typeof t === "string" ? t : t.token;
        const owner = tokens.get(tok);
        if (owner !== undefined && owner !== b.id) {
          ctx.addIssue({ code: "custom", path: ["brands", i, "tokens"], message: `token "${tok}" is already used by "${owner}"` });
        }
        tokens.set(tok, b.id);
      }
      // A domain may be both: the brand's own site at the apex, its users' content under it
      // (tumblr.com and name.tumblr.com); only the apex is vouched for.
    });
  });
export type BrandsFile = z.infer<typeof brandsFileSchema>;

export const suspiciousTldsFileSchema = z.strictObject({
  ...header,
  entries: z
    .array(z.strictObject({ tld: z.string().regex(/^[a-z][a-z0-9-]*$/), weight, rationale }))
    .min(1)
    .refine((es) => new Set(es.map((e) => e.tld)).size === es.length, "duplicate TLD"),
});

export const keywordsFileSchema = z.strictObject({
  ...header,
  entries: z
    .array(
      z.strictObject({
        keyword: z.string().regex(TOKEN_RE),
        category: z.enum(KEYWORD_CATEGORIES),
        weight,
        rationale,
      }),
    )
    .min(1)
    .refine((es) => new Set(es.map((e) => e.keyword)).size === es.length, "duplicate keyword"),
});

/** Crypto asset names and tickers, and figures fake giveaways invoke: with a giveaway word beside them they name a giveaway scam. */
export const cryptoAssetsFileSchema = z.strictObject({
  ...header,
  entries: z
    .array(
      z.strictObject({
        term: z.string().regex(/^[a-z]{3,}$/, "terms are three or more lower-case letters"),
        /** The asset named, or for `kind: "person"` the public figure that giveaway scams impersonate. */
        asset: z.string().min(2),
        kind: z.enum(["asset", "person"]).default("asset"),
        /** Ordinary words that begin or end with the term without naming it ("ethics", "together", "melon"). */
        false_friends: z.array(z.string().regex(/^[a-z]+$/)).default([]),
        rationale,
      }),
    )
    .min(1)
    .refine((es) => new Set(es.map((e) => e.term)).size === es.length, "duplicate crypto asset term"),
});

const wordEntries = (what: string) =>
  z
    .array(z.strictObject({ word: z.string().regex(/^[a-z0-9]{3,}$/, "words are three or more lower-case letters or digits"), rationale }))
    .min(1)
    .refine((es) => new Set(es.map((e) => e.word)).size === es.length, `duplicate ${what}`);

/**
 * Wallet-drainer naming: what a drainer wants connected (wallet, dapp, token …) and the made-up
 * service step it names ("sync", "rectify", "validate" …). Both together name a drainer front.
 */
export const walletLuresFileSchema = z.strictObject({
  ...header,
  objects: wordEntries("wallet-lure object"),
  actions: wordEntries("wallet-lure action"),
});

/** Free hosts whose users get sub-domains, beyond the Public Suffix List's private section. */
export const freeHostingFileSchema = z.strictObject({
  ...header,
  note: z.string().min(10),
  entries: z
    .array(z.strictObject({ domain, rationale }))
    .min(1)
    .refine((es) => new Set(es.map((e) => e.domain)).size === es.length, "duplicate free-hosting domain"),
});

export const shortenersFileSchema = z.strictObject({
  ...header,
  entries: z
    .array(z.strictObject({ domain, open: z.boolean(), rationale }))
    .min(1)
    .refine((es) => new Set(es.map((e) => e.domain)).size === es.length, "duplicate shortener domain"),
});

const hostPattern = z.string().regex(/^(?:\*\.)?(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/, "must be a lower-case host name, optionally starting with *.");
const pathPattern = z.string().regex(/^\/[\w./-]*$/, "must be a URL path starting with /");
/** Exact hosts (or `*.domain`), or every official domain of one brand. */
const platformHosts = { hosts: z.array(hostPattern).min(1).optional(), domains_of: z.string().min(1).optional() };
const hostsGiven = (e: { hosts?: readonly string[] | undefined; domains_of?: string | undefined }): boolean => (e.hosts !== undefined) !== (e.domains_of !== undefined);

/**
 * Where allowlisted platforms serve other people's content: open redirectors (host, path and the
 * query parameter holding the target), user-content paths, and brands' own short domains.
 */
export const platformPathsFileSchema = z.strictObject({
  ...header,
  note: z.string().min(10),
  redirectors: z
    .array(z.strictObject({ ...platformHosts, paths: z.array(pathPattern).min(1), params: z.array(z.string().regex(/^[a-z]+$/)).min(1), rationale }).refine(hostsGiven, "give either hosts or domains_of"))
    .min(1),
  user_content: z
    .array(z.strictObject({ ...platformHosts, paths: z.array(pathPattern).min(1), what: z.string().min(3), rationale }).refine(hostsGiven, "give either hosts or domains_of"))
    .min(1),
  short_domains: z
    .array(z.strictObject({ domain, brand: z.string().min(1), leads_to: z.string().min(3), rationale }))
    .min(1)
    .refine((es) => new Set(es.map((e) => e.domain)).size === es.length, "duplicate short domain"),
});

/** Parses `data` with `schema`, throwing an error that names the file and every problem. */
/** Crypto projects' names and official domains, derived from pinned npm registries (tools/train/projects.ts). */
export const projectsFileSchema = z.strictObject({
  ...header,
  note: z.string().min(10),
  sources: z.array(z.strictObject({ package: z.string().min(1), version: z.string().min(1), licence: z.string().min(1), projects: z.number().int().min(0) })).min(1),
  projects: z.array(z.strictObject({ names: z.array(z.string().regex(/^[a-z0-9]{4,24}$/)).min(1), domains: z.array(domain) })).min(1),
});

/** Popular sites (tools/train/popular-sites.ts): registrable domains whose own name never scores high. */
export const popularSitesFileSchema = z.strictObject({
  ...header,
  note: z.string().min(10),
  package: z.string().min(1),
  package_version: z.string().min(1),
  package_licence: z.string().min(1),
  sites: z
    .array(domain)
    .min(1)
    .refine((xs) => new Set(xs).size === xs.length, "duplicate popular site"),
});

/** The learned domain model (tools/train): logistic regression weights, calibration, vocabulary. */
export const domainModelFileSchema = z.strictObject({
  ...header,
  note: z.string().min(10),
  trained_on: z.array(z.string().min(1)).min(1),
  hashed: z.number().int().positive(),
  named: z.array(z.string().min(1)),
  weights: z.string().regex(/^[a-z0-9+/]*={0,2}$/i),
  scale: z.number().positive(),
  calibration: z.strictObject({ a: z.number(), b: z.number() }),
  scoreMap: z.array(z.tuple([z.number(), z.number().min(0).max(100)])),
  lureWords: z.array(z.string().regex(/^[a-z0-9]{4,24}$/)),
});

export function validate<S extends z.ZodType>(schema: S, data: unknown, file: string): z.output<S> {
  const r = schema.safeParse(data);
  if (!r.success) throw new Error(`@svc/intel: ${file} is invalid:\n${z.prettifyError(r.error)}`);
  return r.data;
}
