import { describe, expect, it } from "vitest";
import { parseEntity } from "../entities/parse-entity.js";
import { checkCoversEntity } from "./report-moderation.js";

const entity = (v: string) => {
  const p = parseEntity(v);
  if (!p.ok) throw new Error(v);
  return p.entity;
};

describe("checkCoversEntity", () => {
  it("accepts the checked entity itself", () => {
    expect(checkCoversEntity(entity("evil-shop.com"), "domain:evil-shop.com")).toBe(true);
    expect(checkCoversEntity(entity("evil-shop.com"), "domain:other-shop.com")).toBe(false);
    // A domain check does not cover its parent or a URL on it.
    expect(checkCoversEntity(entity("login.evil-shop.com"), "domain:evil-shop.com")).toBe(false);
  });
  it("accepts a checked URL's host, registered domain and shareable form", () => {
    const url = entity("https://user@login.evil-shop.co.uk/pay?id=7#x");
    for (const id of ["domain:login.evil-shop.co.uk", "domain:evil-shop.co.uk", "url:https://login.evil-shop.co.uk/pay", url.id]) expect(checkCoversEntity(url, id)).toBe(true);
    for (const id of ["domain:co.uk", "domain:shop.co.uk", "url:https://login.evil-shop.co.uk/other"]) expect(checkCoversEntity(url, id)).toBe(false);
    expect(checkCoversEntity(entity("http://192.0.2.7/x"), "ip_address:192.0.2.7")).toBe(true);
  });
  it("accepts a checked e-mail address's domain and registered domain, never another address", () => {
    const mail = entity("Bob@Mail.Evil-Shop.com");
    expect(checkCoversEntity(mail, "domain:mail.evil-shop.com")).toBe(true);
    expect(checkCoversEntity(mail, "domain:evil-shop.com")).toBe(true);
    expect(checkCoversEntity(mail, "email:alice@mail.evil-shop.com")).toBe(false);
  });
});
