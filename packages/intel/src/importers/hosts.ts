import { checkOptions, makeRecord, Seen, splitLines } from "./common.js";
import type { ImportOptions, ImportResult } from "./types.js";

const IPV4_RE = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_RE = /^[0-9a-f.:]+(?:%[\w.-]+)?$/i;
const HOST_RE = /^(?=.{1,253}$)[a-z0-9_][a-z0-9_-]{0,62}(?:\.[a-z0-9_][a-z0-9_-]{0,62})*\.?$/;

/** Names every hosts file maps to itself; never intel. */
const LOCAL_NAMES = new Set([
  "localhost",
  "localhost.localdomain",
  "local",
  "broadcasthost",
  "ip6-localhost",
  "ip6-loopback",
  "ip6-localnet",
  "ip6-mcastprefix",
  "ip6-allnodes",
  "ip6-allrouters",
  "ip6-allhosts",
  "0.0.0.0",
]);

const isIp = (s: string): boolean => IPV4_RE.test(s) || (s.includes(":") && IPV6_RE.test(s));

/**
 * Hosts files (`0.0.0.0 evil.com`, `127.0.0.1 evil.com other.com`): every host name after the
 * address becomes a record of type "domain". Comments, blank lines and localhost entries are
 * ignored; lines that do not start with an IP address, or host names with invalid characters,
 * are reported in `skipped`.
 */
export function parseHostsFile(text: string, opts: ImportOptions): ImportResult {
  checkOptions(opts);
  const list = opts.list ?? "block";
  const type = opts.type ?? "domain";
  const result: ImportResult = { records: [], skipped: [] };
  const seen = new Seen();
  splitLines(text).forEach((rawLine, i) => {
    const line = i + 1;
    const hash = rawLine.indexOf("#");
    const body = (hash === -1 ? rawLine : rawLine.slice(0, hash)).trim();
    if (body === "") return;
    const [address, ...names] = body.split(/\s+/) as [string, ...string[]];
    if (!isIp(address)) {
      result.skipped.push({ line, reason: `"${address.slice(0, 64)}" is not an IP address` });
      return;
    }
    if (names.length === 0) {
      result.skipped.push({ line, reason: "no host name after the address" });
      return;
    }
    for (const rawName of names) {
      const name = rawName.toLowerCase().replace(/\.$/, "");
      if (LOCAL_NAMES.has(name)) continue;
      if (!HOST_RE.test(name) || name.includes("..")) {
        result.skipped.push({ line, reason: `"${rawName.slice(0, 64)}" is not a host name` });
        continue;
      }
      const dup = seen.check(list, name, line);
      if (dup !== null) {
        result.skipped.push({ line, reason: `duplicate of line ${dup}` });
        continue;
      }
      result.records.push(makeRecord(name, list, opts.source, type, opts.label));
    }
  });
  return result;
}
