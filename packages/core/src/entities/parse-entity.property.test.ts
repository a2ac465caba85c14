import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractEntities } from "./extract.js";
import { parseEntity } from "./parse-entity.js";

/** Parsing a canonical value must give back the same entity: ids are stable. */
function roundTrips(input: string): void {
  const first = parseEntity(input);
  if (!first.ok) return;
  const again = parseEntity(first.entity.value);
  expect(again.ok, `canonical ${JSON.stringify(first.entity.value)} of ${JSON.stringify(input)} did not parse`).toBe(true);
  if (again.ok) {
    expect(again.entity.id).toBe(first.entity.id);
    const typed = parseEntity(first.entity.value, { type: first.entity.type });
    expect(typed.ok && typed.entity.id).toBe(first.entity.id);
  }
}

const pieces = fc.constantFrom("paypal", "xn--pple-43d", "аpple", "münchen", "login", "-", ".", "@", "/", ":", "0x", "+", "1", "[.]", "\u200B", "com", "co.uk", "https://", "x:@", " ");
const entityish = fc.array(pieces, { maxLength: 12 }).map((a) => a.join(""));

describe("parseEntity properties", () => {
  it("canonical values parse to themselves (domains)", () => fc.assert(fc.property(fc.domain(), roundTrips), { numRuns: 500 }));
  it("canonical values parse to themselves (URLs)", () => fc.assert(fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), roundTrips), { numRuns: 500 }));
  it("canonical values parse to themselves (e-mail)", () => fc.assert(fc.property(fc.emailAddress(), roundTrips), { numRuns: 500 }));
  it("canonical values parse to themselves (IPv4)", () => fc.assert(fc.property(fc.ipV4(), roundTrips), { numRuns: 300 }));
  it("canonical values parse to themselves (phones)", () =>
    fc.assert(fc.property(fc.stringMatching(/^\+[1-9]\d{7,13}$/), roundTrips), { numRuns: 300 }));
  it("canonical values parse to themselves (entity-like junk)", () => fc.assert(fc.property(entityish, roundTrips), { numRuns: 1000 }));

  it("never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (s) => {
        const r = parseEntity(s);
        return typeof r.ok === "boolean";
      }),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(entityish, fc.constantFrom(undefined, "domain", "url", "wallet", "email", "ip_address", "phone", "social_account"), (s, type) => {
      parseEntity(s, { type });
      return true;
    }), { numRuns: 1000 });
  });

  it("extraction never throws and every reported span is inside the text", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(entityish, fc.string({ unit: "binary", maxLength: 20 }), fc.domain(), fc.webUrl()), { maxLength: 10 }).map((a) => a.join(" ")), (text) => {
        const r = extractEntities(text);
        for (const e of r.entities) {
          expect(e.start).toBeGreaterThanOrEqual(0);
          expect(e.end).toBeLessThanOrEqual(text.length);
          expect(e.start).toBeLessThan(e.end);
          expect(e.entity.input).toBe(text.slice(e.start, e.end));
        }
      }),
      { numRuns: 500 },
    );
  });
});
