import { fc, test } from "@fast-check/vitest";
import { ScreenRequestSchema } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { plainScreenInput } from "./screen-input.js";

const JSON_TYPE = "application/json";
/** What the route's own validators say: the body schema, and the Idempotency-Key header's (1–255 characters when sent). */
const schemaSays = (key: string | undefined, body: unknown) => {
  const parsed = ScreenRequestSchema.safeParse(body);
  const keyOk = key === undefined || (key.length >= 1 && key.length <= 255);
  return parsed.success && keyOk ? parsed.data : null;
};

describe("plainScreenInput", () => {
  const types = ["domain", "url", "wallet", "email", "ip_address", "phone", "social_account", "Domain", "", "other"];
  const body = fc.oneof(
    fc.record({ entity_value: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(""), fc.constant("x".repeat(4096)), fc.constant("x".repeat(4097)), fc.integer(), fc.constant(null)) }, { requiredKeys: [] }),
    fc.record({ entity_value: fc.string({ minLength: 1, maxLength: 20 }), type: fc.oneof(fc.constantFrom(...types), fc.constant(null), fc.integer()) }, { requiredKeys: ["entity_value"] }),
    fc.record({ entity_value: fc.string({ minLength: 1 }), extra: fc.anything() }),
    fc.anything(),
  );
  const key = fc.option(fc.string({ maxLength: 300 }), { nil: undefined });

  test.prop([key, body], { numRuns: 2_000 })("accepts exactly what the route's schemas accept, and gives back what they give", (k, b) => {
    const fast = plainScreenInput(JSON_TYPE, k, b);
    // Anything it does not take goes to the schemas; anything it takes, they would take alike.
    if (fast !== null) expect(fast).toEqual(schemaSays(k, b));
  });

  it("takes the plain cases", () => {
    expect(plainScreenInput(JSON_TYPE, undefined, { entity_value: "paypa1.com" })).toEqual({ entity_value: "paypa1.com" });
    expect(plainScreenInput(JSON_TYPE, "k-1", { entity_value: "0x12", type: "wallet" })).toEqual({ entity_value: "0x12", type: "wallet" });
  });

  it.each([
    ["another media type", "application/problem+json", undefined, { entity_value: "a.com" }],
    ["a parameter on the media type", "application/json; charset=utf-8", undefined, { entity_value: "a.com" }],
    ["an empty Idempotency-Key", JSON_TYPE, "", { entity_value: "a.com" }],
    ["an empty value", JSON_TYPE, undefined, { entity_value: "" }],
    ["an unknown type", JSON_TYPE, undefined, { entity_value: "a.com", type: "host" }],
    ["an extra member", JSON_TYPE, undefined, { entity_value: "a.com", note: 1 }],
    ["an array", JSON_TYPE, undefined, [{ entity_value: "a.com" }]],
  ])("leaves %s to the schemas", (_what, type, k, b) => {
    expect(plainScreenInput(type, k, b)).toBeNull();
  });
});
