import { describe, expect, it } from "vitest";
import { parseEntity } from "./parse-entity.js";
import { shareableEntityId } from "./shareable.js";

const shared = (v: string): string | null => {
  const p = parseEntity(v);
  if (!p.ok) throw new Error(v);
  return shareableEntityId(p.entity);
};

describe("shareableEntityId", () => {
  it("drops a URL's user-info, query string and fragment, keeps scheme, host, port and path", () => {
    expect(shared("https://alice:pw@arnazon.com:8443/reset/x?email=a@b.c&token=SECRET#frag")).toBe("url:https://arnazon.com:8443/reset/x");
    expect(shared("http://1.2.3.4/a?b=1")).toBe("url:http://1.2.3.4/a");
  });

  it("shares an e-mail address only as its domain", () => {
    expect(shared("mailto:alice.smith@bigcorp.com")).toBe("domain:bigcorp.com");
  });

  it("shares other entities as they are", () => {
    expect(shared("paypa1.com")).toBe("domain:paypa1.com");
    expect(shared("0x52908400098527886E0F7030069857D2E4169EE7")).toMatch(/^wallet:/);
  });
});
