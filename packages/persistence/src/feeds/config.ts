import { ENTITY_TYPES } from "@svc/core";
import { z } from "zod";

/** The formats a feed can be in (each is a parser in @svc/intel). */
export const FEED_FORMATS = ["plain", "hosts", "csv", "eth-phishing-detect", "polkadot-js-all", "polkadot-js-address", "ofac-sdn"] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export const FeedDefinitionSchema = z.strictObject({
  /** Short name; entries are stored with source `feed:<name>`. */
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "lower-case letters, digits, '.', '_' or '-' (at most 63)"),
  url: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  format: z.enum(FEED_FORMATS),
  /** plain, hosts, csv: which list the entries go to (csv rows may say). Default block. */
  list: z.enum(["allow", "block"]).optional(),
  /** plain, hosts, csv, eth-phishing-detect, polkadot-js-all: the entity type of every entry. */
  type: z.enum(ENTITY_TYPES).optional(),
  /** Reason stored on every entry (default: the format's own, e.g. "sanctioned: <name> (…)"). */
  label: z.string().min(1).max(200).optional(),
  timeout_seconds: z.number().int().min(1).max(600).default(60),
  max_megabytes: z.number().int().min(1).max(1024).default(64),
});

export type FeedDefinition = z.infer<typeof FeedDefinitionSchema>;

export const FeedListSchema = z.array(FeedDefinitionSchema).max(100).superRefine((feeds, ctx) => {
  const seen = new Set<string>();
  feeds.forEach((f, i) => {
    if (seen.has(f.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `"${f.name}" is used by two feeds` });
    seen.add(f.name);
  });
});

/**
 * SVC_FEEDS: a JSON array of feed definitions, or the path of a JSON file holding one (read with
 * `readFile`). Empty or absent: no feeds. Throws an Error whose message says what is wrong, for
 * the config loaders to report against the variable.
 */
export function parseFeedsSetting(raw: string | undefined, readFile: (path: string) => string): FeedDefinition[] {
  const text = (raw ?? "").trim();
  if (text === "") return [];
  let json = text;
  let where = "";
  if (!text.startsWith("[")) {
    where = ` (file ${text})`;
    try {
      json = readFile(text);
    } catch (e) {
      throw new Error(`not a JSON array and not a readable file: ${text} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    throw new Error(`invalid JSON${where}: ${(e as Error).message}`);
  }
  const r = FeedListSchema.safeParse(doc);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.length > 0 ? `[${i.path.join("].[")}] ` : ""}${i.message}`);
    throw new Error(`invalid feed list${where}: ${issues.join("; ")}`);
  }
  return r.data;
}
