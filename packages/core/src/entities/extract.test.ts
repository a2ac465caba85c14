import { describe, expect, it } from "vitest";
import { extractEntities } from "./extract.js";

const ids = (text: string) => extractEntities(text).entities.map((e) => e.entity.id);

describe("extractEntities", () => {
  it.each([
    ["Go to paypa1.com now", ["domain:paypa1.com"]],
    ["visit https://evil.example.com/login?x=1.", ["url:https://evil.example.com/login?x=1"]],
    ["(see example.org)", ["domain:example.org"]],
    ["send to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed asap", ["wallet:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"]],
    ["btc: bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", ["wallet:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"]],
    ["sol TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA!", ["wallet:TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"]],
    ["mail support@binance-help.top today", ["email:support@binance-help.top"]],
    ["call +1 (415) 555-2671 now", ["phone:+14155552671"]],
    ["server at 185.220.101.1, port 22", ["ip_address:185.220.101.1"]],
    ["follow x:@Binance_Support", ["social_account:x:@binance_support"]],
    ["hxxps://evil[.]com/x and evil(dot)org", ["url:https://evil.com/x", "domain:evil.org"]],
    ["Wikipedia https://en.wikipedia.org/wiki/Foo_(bar) ok", ["url:https://en.wikipedia.org/wiki/Foo_(bar)"]],
    ["访问 paypa1.com。谢谢", ["domain:paypa1.com"]],
    ["a.com b.com a.com", ["domain:a.com", "domain:b.com"]],
    ["<https://example.com/x>", ["url:https://example.com/x"]],
    ['"quoted.example.com"', ["domain:quoted.example.com"]],
  ] as const)("%s", (text, expected) => {
    expect(ids(text)).toEqual(expected);
  });

  it.each([
    "Hello there, how are you?",
    "version 1.2.3 released",
    "e.g. this and i.e. that",
    "use Node.js and index.html",
    "I'm fine.So what now",
    "price is 3.50 USD",
    "HyperTextMarkupDocumentsAreWrittenFast",
    "@everyone look",
    "time 12:30 today",
  ])("finds nothing in %j", (text) => {
    expect(ids(text)).toEqual([]);
  });

  it("reports positions in the original text, occurrences and links", () => {
    const text = "x paypa1.com y paypa1.com";
    const [e] = extractEntities(text).entities;
    expect(e).toMatchObject({ start: 2, end: 12, occurrences: 2, via: "text" });
    expect(text.slice(e!.start, e!.end)).toBe("paypa1.com");
  });

  it("strips zero-width and bidi characters for matching and records them", () => {
    const text = "go pay\u200Bpal-login\u202E.com now";
    const r = extractEntities(text);
    expect(r.entities.map((e) => e.entity.id)).toEqual(["domain:paypal-login.com"]);
    expect(r.hidden_characters).toEqual(["U+200B", "U+202E"]);
    expect(r.bidi_controls).toBe(true);
    const e = r.entities[0]!;
    expect(e.entity.attributes.hidden_characters).toEqual(["U+200B", "U+202E"]);
    expect(text.slice(e.start, e.end)).toBe("pay\u200Bpal-login\u202E.com");
  });

  it("records defanging on the entity", () => {
    const r = extractEntities("block hxxp://bad[.]example.com please");
    expect(r.defanged).toBe(true);
    expect(r.entities[0]?.entity.attributes.defanged).toBe(true);
    expect(r.entities[0]?.entity.input).toBe("hxxp://bad[.]example.com");
  });

  it("flags a Markdown link whose text shows another site", () => {
    const r = extractEntities("Log in at [paypal.com](https://paypa1.com/login) quickly");
    expect(r.entities).toHaveLength(1);
    expect(r.entities[0]).toMatchObject({ via: "markdown_link", link: { text_host: "paypal.com", mismatch: true } });
    expect(r.entities[0]?.entity.id).toBe("url:https://paypa1.com/login");
  });

  it("does not flag an honest Markdown link", () => {
    const r = extractEntities("[docs](https://www.example.com/docs) and [example.com](https://example.com)");
    expect(r.entities.map((e) => e.link?.mismatch)).toEqual([false, false]);
  });

  it("flags an HTML anchor whose text shows another site", () => {
    const r = extractEntities('<p>Your account: <a class="btn" href="https://secure-paypal.example.net/x?a=1&amp;b=2"><b>www.paypal.com</b></a></p>');
    expect(r.entities).toHaveLength(1);
    expect(r.entities[0]).toMatchObject({ via: "html_link", link: { text_host: "paypal.com", mismatch: true } });
    expect(r.entities[0]?.entity.value).toBe("https://secure-paypal.example.net/x?a=1&b=2");
  });

  it("caps the number of entities and says so", () => {
    const text = Array.from({ length: 50 }, (_, i) => `site${i}.com`).join(" ");
    const r = extractEntities(text, { maxEntities: 10 });
    expect(r.entities).toHaveLength(10);
    expect(r.truncated).toBe(true);
    expect(extractEntities("a.com b.com").truncated).toBe(false);
  });

  it("never throws on odd input", () => {
    for (const t of ["", "[", "](", "[](", "[x](", "<a ", "<a href=", "<a href='x'>", "+", "+1", "\u200B".repeat(10), "hxxp", "[.][.][.]"]) {
      expect(() => extractEntities(t)).not.toThrow();
    }
    expect(extractEntities(undefined as unknown as string).entities).toEqual([]);
  });
});

describe("extraction stays linear on adversarial input (100 KB each)", () => {
  const size = 100_000;
  const cases: (readonly [string, string])[] = [
    ["unclosed markdown", "[a](".repeat(size / 4)],
    ["brackets", "[".repeat(size)],
    ["closing brackets", "](".repeat(size / 2)],
    ["html anchors without end", "<a href=x ".repeat(size / 10)],
    ["html anchors", '<a href="https://a.com">'.repeat(size / 24)],
    ["dots", ".".repeat(size)],
    ["dotted words", "a.".repeat(size / 2)],
    ["at signs", "a@".repeat(size / 2)],
    ["pluses", "+1 ".repeat(size / 3)],
    ["defang brackets", "[.".repeat(size / 2)],
    ["hidden characters", "a\u200B".repeat(size / 2)],
    ["one long token", "a".repeat(size)],
    ["long host", `${"ab.".repeat(size / 3)}com`],
    ["parentheses", `https://x.com/${"(".repeat(size / 2)}${")".repeat(size / 2)}`],
    ["base58 soup", "1A1zP1eP5QGefi2DMPTfTL5SLmv7Div ".repeat(size / 32)],
  ];
  it.each(cases)("%s", (_name, text) => {
    const started = performance.now();
    extractEntities(text);
    const ms = performance.now() - started;
    // Generous bound for a loaded CI machine; quadratic behaviour on 100 KB takes seconds.
    expect(ms).toBeLessThan(500);
  });
});
