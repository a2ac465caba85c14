import { describe, expect, it } from "vitest";
import { parseHostsFile } from "./hosts.js";

const src = { source: "hosts-feed" };

describe("parseHostsFile", () => {
  it("reads 0.0.0.0 and 127.0.0.1 entries as block-listed domains", () => {
    const r = parseHostsFile("0.0.0.0 evil.com\n127.0.0.1\tPhish.Example.NET\n", src);
    expect(r.records).toEqual([
      { value: "evil.com", type: "domain", list: "block", source: "hosts-feed" },
      { value: "phish.example.net", type: "domain", list: "block", source: "hosts-feed" },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it("ignores comments, blank lines and localhost entries", () => {
    const text = [
      "# Title: test hosts",
      "127.0.0.1 localhost",
      "127.0.0.1 localhost.localdomain",
      "255.255.255.255 broadcasthost",
      "::1 localhost ip6-localhost ip6-loopback",
      "fe80::1%lo0 localhost",
      "0.0.0.0 0.0.0.0",
      "",
      "0.0.0.0 bad.test # trailing comment",
    ].join("\n");
    const r = parseHostsFile(text, src);
    expect(r.records.map((x) => x.value)).toEqual(["bad.test"]);
    expect(r.skipped).toEqual([]);
  });

  it("reads several host names on one line and IPv6 addresses", () => {
    const r = parseHostsFile("0.0.0.0 a.com b.com  c.com\n:: d.com\n", src);
    expect(r.records.map((x) => x.value)).toEqual(["a.com", "b.com", "c.com", "d.com"]);
  });

  it("reports lines that do not start with an IP address", () => {
    const r = parseHostsFile("evil.com\n999.1.1.1 x.com\n0.0.0.0 ok.com\n", src);
    expect(r.records.map((x) => x.value)).toEqual(["ok.com"]);
    expect(r.skipped).toEqual([
      { line: 1, reason: '"evil.com" is not an IP address' },
      { line: 2, reason: '"999.1.1.1" is not an IP address' },
    ]);
  });

  it("reports an address without host names and invalid host names", () => {
    const r = parseHostsFile("0.0.0.0\n0.0.0.0 bad..com good.com\n0.0.0.0 http://x.com/\n", src);
    expect(r.records.map((x) => x.value)).toEqual(["good.com"]);
    expect(r.skipped).toEqual([
      { line: 1, reason: "no host name after the address" },
      { line: 2, reason: '"bad..com" is not a host name' },
      { line: 3, reason: '"http://x.com/" is not a host name' },
    ]);
  });

  it("drops trailing dots, handles CRLF, reports duplicates", () => {
    const r = parseHostsFile("0.0.0.0 evil.com.\r\n0.0.0.0 EVIL.com\r\n", src);
    expect(r.records.map((x) => x.value)).toEqual(["evil.com"]);
    expect(r.skipped).toEqual([{ line: 2, reason: "duplicate of line 1" }]);
  });

  it("can feed an allowlist", () => {
    const r = parseHostsFile("0.0.0.0 partner.com\n", { source: "s", list: "allow", label: "partner" });
    expect(r.records).toEqual([{ value: "partner.com", type: "domain", list: "allow", label: "partner", source: "s" }]);
  });
});
