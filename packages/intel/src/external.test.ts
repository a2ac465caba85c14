import { describe, expect, it } from "vitest";
import { canonicalDomainSet, confusablesMap } from "./external.js";

describe("canonicalDomainSet", () => {
  it("trims, lower-cases and drops trailing dots", () => {
    expect([...canonicalDomainSet([" Mailinator.COM ", "foo.org."]).domains]).toEqual(["mailinator.com", "foo.org"]);
  });
  it("converts IDN entries to punycode like @svc/core does", () => {
    expect([...canonicalDomainSet(["müll.email"]).domains]).toEqual(["xn--mll-hoa.email"]);
  });
  it("drops garbage and reserved names and says why", () => {
    const r = canonicalDomainSet(["user@host.com", "example.com", "foo.test", "no_tld", 42, "", "ok.net"]);
    expect([...r.domains]).toEqual(["ok.net"]);
    expect(r.dropped.map((d) => d.reason)).toEqual(["not a domain name", "reserved name", "reserved name", "not a domain name", "not a string"]);
  });
  it("deduplicates", () => {
    expect(canonicalDomainSet(["a.com", "A.com", "a.com."]).domains.size).toBe(1);
  });
});

describe("confusablesMap", () => {
  it("maps single code points, including astral ones", () => {
    const m = confusablesMap({ "\u0430": "a", "\u{1D41A}": "a", m: "rn" });
    expect(m.get(0x430)).toBe("a");
    expect(m.get(0x1d41a)).toBe("a");
    expect(m.get(0x6d)).toBe("rn");
  });
  it("rejects multi-code-point keys and empty prototypes", () => {
    expect(() => confusablesMap({ ab: "x" })).toThrow(/single code point/);
    expect(() => confusablesMap({ a: "" })).toThrow(/no prototype/);
  });
});
