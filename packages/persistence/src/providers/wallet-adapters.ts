import { parseEntity, type Clock, type Finding } from "@svc/core";
import { fetchJson, ProviderError, type ProviderAdapter, type ProviderIo } from "./framework.js";

const DAY_MS = 86_400_000;
const trimBase = (u: string): string => (u.endsWith("/") ? u.slice(0, -1) : u);
const malformed = (provider: string, what: string): ProviderError => new ProviderError("malformed", `${provider} answered JSON without ${what}`, false);

interface ChainabuseReport { id?: unknown; scamCategory?: unknown; createdAt?: unknown; checked?: unknown; trusted?: unknown }

/**
 * Chainabuse (TRM Labs) `GET /v0/reports?address=`: community scam reports about an address, HTTP
 * Basic with the API key as user name and password. Reports are counted with their categories;
 * moderator-checked or trusted-contributor reports weigh most. No report is "nothing known".
 */
export function chainabuseAdapter(opts: { key: string; baseUrl?: string | undefined }): ProviderAdapter {
  const base = trimBase(opts.baseUrl ?? "https://api.chainabuse.com/v0");
  const source = { name: "chainabuse", version: "v0" };
  const authorization = `Basic ${Buffer.from(`${opts.key}:${opts.key}`).toString("base64")}`;
  const reports = async (address: string, io: ProviderIo): Promise<{ reports: ChainabuseReport[]; total: number }> => {
    const url = `${base}/reports?${new URLSearchParams({ address, page: "1", perPage: "50" }).toString()}`;
    const answer = await fetchJson(io, "chainabuse", url, { headers: { authorization, accept: "application/json" } });
    if (answer === null) return { reports: [], total: 0 };
    // The documented page is `{ reports, count }`; a bare array of reports is read the same way.
    const list = Array.isArray(answer) ? answer : (answer as { reports?: unknown } | null)?.reports;
    if (!Array.isArray(list)) throw malformed("chainabuse", "a reports array");
    const rows = (list as unknown[]).filter((r): r is ChainabuseReport => typeof r === "object" && r !== null);
    const count = Array.isArray(answer) ? rows.length : (answer as { count?: unknown }).count;
    return { reports: rows, total: typeof count === "number" && Number.isFinite(count) && count >= rows.length ? count : rows.length };
  };
  return {
    name: "chainabuse",
    types: ["wallet"],
    async lookup(query, io) {
      const { reports: rows, total } = await reports(query.value, io);
      if (total === 0) return [];
      const categories = [...new Set(rows.map((r) => (typeof r.scamCategory === "string" ? r.scamCategory.toLowerCase() : null)).filter((c): c is string => c !== null))].sort();
      const vetted = rows.filter((r) => r.checked === true || r.trusted === true).length;
      const dates = rows.map((r) => (typeof r.createdAt === "string" ? Date.parse(r.createdAt) : Number.NaN)).filter((t) => !Number.isNaN(t));
      const newest = dates.length > 0 ? new Date(Math.max(...dates)).toISOString() : null;
      // One unvetted report is an accusation; several, or one a moderator checked, are evidence.
      const strength = vetted > 0 ? 1 : Math.min(0.9, 0.5 + 0.1 * (total - 1));
      return [{
        code: "reputation.wallet_reports",
        family: "reputation",
        message: `Chainabuse has ${total} scam report${total === 1 ? "" : "s"} about this address${categories.length > 0 ? ` (${categories.map((c) => c.replace(/_/g, " ")).join(", ")})` : ""}${vetted > 0 ? `, ${vetted} checked or from trusted reporters` : ""}`,
        evidence: { reports: total, categories: categories.join(","), vetted, newest_report_at: newest },
        source,
        strength: Math.round(strength * 100) / 100,
        ...(newest ? { observed_at: newest } : {}),
      } satisfies Finding];
    },
    async probe(io) {
      await reports("0x0000000000000000000000000000000000000000", io);
      return "reachable, key accepted";
    },
  };
}

export interface ExplorerOptions {
  /**
   * The Etherscan-compatible `api` endpoint, with any fixed parameters it needs (Etherscan V2:
   * `https://api.etherscan.io/v2/api?chainid=1`; Blockscout: `https://eth.blockscout.com/api`).
   */
  readonly baseUrl: string;
  /** Sent as `apikey` when set (Etherscan requires one; Blockscout does not). */
  readonly key?: string | undefined;
  readonly clock: Clock;
  /** An address first seen fewer days ago than this is "new". */
  readonly newWalletDays?: number;
}

/**
 * A chain explorer with the Etherscan account API (`module=account&action=txlist&sort=asc&page=1
 * &offset=1`: the oldest transaction only) for an EVM address: "first seen N days ago" or "no
 * transactions". A new address adds a little risk; an old one adds a 0-point fact, never a lower
 * score. Addresses of other chains are not this explorer's: nothing is asked, nothing is said.
 */
export function explorerAdapter(opts: ExplorerOptions): ProviderAdapter {
  const newDays = opts.newWalletDays ?? 30;
  const endpoint = new URL(opts.baseUrl);
  const chainId = endpoint.searchParams.get("chainid");
  const source = { name: "explorer", version: `${endpoint.host}${chainId ? `/chain-${chainId}` : ""}` };
  const oldest = async (address: string, io: ProviderIo): Promise<{ at: number; hash: string | null } | null> => {
    const u = new URL(endpoint);
    for (const [k, v] of Object.entries({ module: "account", action: "txlist", address, startblock: "0", endblock: "99999999", page: "1", offset: "1", sort: "asc" })) u.searchParams.set(k, v);
    if (opts.key) u.searchParams.set("apikey", opts.key);
    const answer = (await fetchJson(io, "explorer", u.toString(), { headers: { accept: "application/json" } })) as { status?: unknown; message?: unknown; result?: unknown } | null;
    if (answer === null || typeof answer !== "object") throw malformed("explorer", "a status");
    const status = String(answer.status ?? "");
    const message = typeof answer.message === "string" ? answer.message : "";
    if (status === "1" && Array.isArray(answer.result)) {
      const tx = (answer.result as { timeStamp?: unknown; hash?: unknown }[])[0];
      const seconds = Number(tx?.timeStamp);
      if (!tx || !Number.isFinite(seconds) || seconds <= 0) throw malformed("explorer", "a transaction timeStamp");
      return { at: seconds * 1000, hash: typeof tx.hash === "string" ? tx.hash : null };
    }
    // Etherscan's "nothing": status 0, message "No transactions found", an empty result.
    if (status === "0" && Array.isArray(answer.result) && answer.result.length === 0 && /^no transactions found$/i.test(message)) return null;
    if (status === "0" || status === "1") {
      // Etherscan reports errors with HTTP 200: status 0, message NOTOK, the reason in `result`.
      const reason = (typeof answer.result === "string" ? answer.result : message).slice(0, 120);
      if (/rate limit/i.test(reason)) throw new ProviderError("rate_limited", `explorer answered "${reason}"`, true, 1_000);
      throw new ProviderError("http_status", `explorer answered "${reason || "NOTOK"}"`, false);
    }
    throw malformed("explorer", "a status of 0 or 1");
  };
  return {
    name: "explorer",
    types: ["wallet"],
    async lookup(query, io) {
      const parsed = parseEntity(query.value, { type: "wallet" });
      if (!parsed.ok || parsed.entity.attributes.chain !== "ethereum") return [];
      const address = parsed.entity.value;
      const first = await oldest(address, io);
      if (first === null) {
        return [{
          code: "reputation.wallet_no_transactions",
          family: "reputation",
          message: `No transaction of this address is on ${source.version}: it has never been used there`,
          evidence: { address, explorer: source.version },
          source,
        }];
      }
      const seenIso = new Date(first.at).toISOString();
      const ageDays = Math.max(0, Math.floor((opts.clock.now().getTime() - first.at) / DAY_MS));
      const findings: Finding[] = [{
        code: "reputation.wallet_first_seen",
        family: "reputation",
        message: `First seen ${ageDays} day${ageDays === 1 ? "" : "s"} ago (its oldest transaction on ${source.version})`,
        evidence: { address, first_seen_at: seenIso, age_days: ageDays, first_tx: first.hash, explorer: source.version },
        source,
        observed_at: seenIso,
      }];
      if (ageDays < newDays) {
        // Full weight in the first week, fading to 0.4 at `newDays`: new addresses are common and mostly harmless.
        const strength = ageDays <= 7 ? 1 : Math.max(0.4, 1 - (0.6 * (ageDays - 7)) / Math.max(1, newDays - 7));
        findings.push({
          code: "reputation.wallet_new",
          family: "reputation",
          message: `This address was first used only ${ageDays} day${ageDays === 1 ? "" : "s"} ago; scam payments often go to fresh addresses`,
          evidence: { address, first_seen_at: seenIso, age_days: ageDays },
          source,
          strength: Math.round(strength * 100) / 100,
          observed_at: seenIso,
        });
      }
      return findings;
    },
    async probe(io) {
      await oldest("0x0000000000000000000000000000000000000000", io);
      return `reachable (${source.version})${opts.key ? ", key accepted" : ""}`;
    },
  };
}
