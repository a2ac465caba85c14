import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../test-support.js";
import { createHttpDeliverer } from "./http-deliverer.js";
import { AddressPolicy, checkWebhookUrl, systemResolver, type Resolver } from "./ssrf.js";

describe("AddressPolicy (pure range checks, no network)", () => {
  const policy = new AddressPolicy("");
  it.each([
    "169.254.169.254", "100.64.0.1", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "fd00::1", "fe80::1", "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::a9fe:a9fe", "2002:a9fe:a9fe::1", "198.18.0.1", "127.0.0.1", "127.255.255.254", "0.0.0.0", "10.1.2.3", "172.31.255.255",
    "192.168.0.1", "::1", "::", "::127.0.0.1", "::ffff:127.0.0.1", "224.0.0.1", "255.255.255.255", "192.0.2.1", "2001:db8::1",
    "2001::1", "ff02::1", "fec0::1", "240.0.0.1", "not an address", "fe80::1%eth0",
  ])("refuses %s", (ip) => expect(policy.allows(ip)).toBe(false));

  it.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001:81c::200e", "::ffff:8.8.8.8"])("allows public %s", (ip) => {
    expect(policy.allows(ip)).toBe(true);
  });

  it("allows private ranges only when listed, in any spelling of the address", () => {
    const p = new AddressPolicy("127.0.0.1/32, 10.0.0.0/8,fd00::/8");
    expect(p.allows("127.0.0.1")).toBe(true);
    expect(p.allows("::ffff:127.0.0.1")).toBe(true);
    expect(p.allows("127.0.0.2")).toBe(false);
    expect(p.allows("10.200.0.1")).toBe(true);
    expect(p.allows("fd00::5")).toBe(true);
    expect(p.allows("169.254.169.254")).toBe(false);
    expect(new AddressPolicy("::ffff:127.0.0.1/128").allows("127.0.0.1")).toBe(true);
    expect(new AddressPolicy("127.0.0.5").allows("127.0.0.5")).toBe(true);
  });

  it("names a bad SVC_WEBHOOK_ALLOWED_CIDRS entry", () => {
    expect(() => new AddressPolicy("127.0.0.1/32,banana")).toThrow(/SVC_WEBHOOK_ALLOWED_CIDRS: "banana"/);
  });
});

describe("SSRF: webhook URLs refused at submission, never contacted at delivery", () => {
  // 127.0.0.2 stands in for a public receiver (allowed explicitly); the canary on 127.0.0.1 counts every hit.
  const policy = new AddressPolicy("127.0.0.2/32");
  let canary: Receiver;
  let publicReceiver: Receiver;
  let P = 0;
  const names: Record<string, string[]> = {};
  // Stub names, else the system resolver (with a trailing dot dropped, as most resolvers do).
  const resolve: Resolver = async (host) => names[host.replace(/\.$/, "")] ?? systemResolver(host.replace(/\.$/, ""));

  beforeAll(async () => {
    canary = await startReceiver("127.0.0.1");
    publicReceiver = await startReceiver("127.0.0.2");
    P = canary.port;
    Object.assign(names, {
      "rebind.test": ["127.0.0.1"],
      "dual.test": ["127.0.0.2", "127.0.0.1"],
      "v6loop.test": ["::1"],
      "mapped.test": ["::ffff:127.0.0.1"],
      "metadata.test": ["169.254.169.254"],
      "public.test": ["127.0.0.2"],
    });
  });
  afterAll(async () => {
    await canary?.close();
    await publicReceiver?.close();
  });

  const payloads = (): string[] => [
    `http://127.0.0.1:${P}/`, `https://127.0.0.1:${P}/`, `http://localhost:${P}/`, `http://localhost.:${P}/`, `http://127.1:${P}/`,
    `http://2130706433:${P}/`, `http://0x7f000001:${P}/`, `http://0177.0.0.1:${P}/`, `http://0x7f.0.0.1:${P}/`, `http://0x7f.1:${P}/`,
    `http://017700000001:${P}/`, `http://１２７.０.０.１:${P}/`, `http://[::1]:${P}/`, `http://[::ffff:127.0.0.1]:${P}/`, `http://[::ffff:7f00:1]:${P}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${P}/`, `http://[::127.0.0.1]:${P}/`, `http://0.0.0.0:${P}/`, `http://[::]:${P}/`, `http://127.0.0.3:${P}/`,
    `http://169.254.169.254/latest/meta-data/`, `http://[::ffff:a9fe:a9fe]/latest/meta-data/`, `http://[fd00:ec2::254]/latest/meta-data/`,
    `http://metadata.test/computeMetadata/v1/`, `http://100.64.0.1/`, `http://10.0.0.1/`, `http://172.16.0.1/`, `http://192.168.1.1/`,
    `http://[fe80::1]/`, `http://[fc00::1]/`, `http://[64:ff9b::7f00:1]:${P}/`, `http://[2002:7f00:1::]:${P}/`, `http://198.18.0.1/`,
    `http://224.0.0.1/`, `http://255.255.255.255/`, `http://rebind.test:${P}/`, `http://dual.test:${P}/`, `http://v6loop.test:${P}/`,
    `http://mapped.test:${P}/`, `http://good@127.0.0.1:${P}/`, `http://user:pass@public.test/`, `file:///etc/passwd`, `gopher://127.0.0.1:${P}/_x`,
    `ftp://127.0.0.1:${P}/`, `javascript:alert(1)`, `data:text/plain,hi`, `http://[::1]`, `not a url`, `http://`,
  ];

  it("has at least 30 payloads", () => expect(payloads().length).toBeGreaterThanOrEqual(30));

  it("refuses every payload at submission with a clear code", async () => {
    for (const url of payloads()) {
      const r = await checkWebhookUrl(url, policy, resolve);
      expect(r.ok, url).toBe(false);
      if (!r.ok) {
        expect(["webhook.url_forbidden", "webhook.url_invalid"], url).toContain(r.code);
        expect(r.message.length).toBeGreaterThan(10);
      }
    }
    expect(canary.received).toHaveLength(0);
  });

  it("never contacts any of them at delivery either (canary hits: 0)", async () => {
    const d = createHttpDeliverer({ policy, resolve, timeoutMs: 2_000 });
    try {
      for (const url of payloads()) {
        const o = await d.deliver({ url, headers: { "webhook-id": "msg_1" }, body: "{}" });
        expect(o.kind, url).toBe("blocked");
      }
    } finally {
      d.close();
    }
    expect(canary.received).toHaveLength(0);
  });

  it("does not follow a redirect to them (same and cross protocol)", async () => {
    const d = createHttpDeliverer({ policy, resolve, timeoutMs: 2_000 });
    try {
      for (const location of [`http://127.0.0.1:${P}/`, `https://127.0.0.1:${P}/`, `http://169.254.169.254/`]) {
        publicReceiver.answer((_req, res) => {
          res.writeHead(302, { location });
          res.end();
        });
        const o = await d.deliver({ url: `${publicReceiver.url}`, headers: {}, body: "{}" });
        expect(o).toMatchObject({ kind: "redirect", statusCode: 302 });
      }
      const viaName = await d.deliver({ url: `http://public.test:${publicReceiver.port}/`, headers: {}, body: "{}" });
      expect(viaName.kind).toBe("redirect");
    } finally {
      d.close();
    }
    expect(canary.received).toHaveLength(0);
    expect(publicReceiver.received.length).toBe(4);
  });

  it("re-checks at delivery: a name that resolved to a public address at submission and to loopback later (DNS rebinding) is blocked", async () => {
    let calls = 0;
    const rebinding: Resolver = async () => (++calls === 1 ? ["127.0.0.2"] : ["127.0.0.1"]);
    const url = `http://flip.test:${P}/`;
    expect(await checkWebhookUrl(url, policy, rebinding)).toMatchObject({ ok: true });
    const d = createHttpDeliverer({ policy, resolve: rebinding, timeoutMs: 2_000 });
    try {
      expect((await d.deliver({ url, headers: {}, body: "{}" })).kind).toBe("blocked");
    } finally {
      d.close();
    }
    expect(canary.received).toHaveLength(0);
  });

  it("control: the canary does count hits when its address is allowed", async () => {
    const d = createHttpDeliverer({ policy: new AddressPolicy("127.0.0.1/32"), resolve, timeoutMs: 2_000 });
    try {
      expect((await d.deliver({ url: `http://[::ffff:127.0.0.1]:${P}/`, headers: {}, body: "{}" })).kind).toBe("delivered");
      expect((await d.deliver({ url: `http://rebind.test:${P}/`, headers: {}, body: "{}" })).kind).toBe("delivered");
    } finally {
      d.close();
    }
    expect(canary.received).toHaveLength(2);
    canary.received.length = 0;
  });

  it("accepts public URLs and normalises them", async () => {
    expect(await checkWebhookUrl(`HTTP://Public.Test:${publicReceiver.port}/a/../hook?x=1`, policy, resolve)).toEqual({ ok: true, url: `http://public.test:${publicReceiver.port}/hook?x=1` });
    expect(await checkWebhookUrl("https://127.0.0.2/", policy, resolve)).toEqual({ ok: true, url: "https://127.0.0.2/" });
    expect(await checkWebhookUrl("https://nonexistent.invalid/", policy, async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nonexistent.invalid"), { code: "ENOTFOUND" });
    })).toMatchObject({ ok: false, code: "webhook.url_unresolvable" });
    expect(await checkWebhookUrl(`https://x.test/${"a".repeat(2100)}`, policy, resolve)).toMatchObject({ ok: false, code: "webhook.url_invalid" });
  });
});
