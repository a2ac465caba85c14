import { describe, expect, it } from "vitest";
import type { ChatUser } from "./chat-port.js";
import { editDistance } from "./edit-distance.js";
import { auditMembers, checkMember, prepareAdmins } from "./impersonation.js";
import { skeleton } from "./skeleton.js";

const admins: ChatUser[] = [
  { id: "1", name: "Alice Walker", username: "alice_w" },
  { id: "2", name: "Bob", username: "bobthebuilder" },
  { id: "99", name: "svc", username: "svc_bot", isBot: true },
];
const prepared = prepareAdmins(admins);

describe("skeleton (UTS #39)", () => {
  it.each<[string, string]>([
    ["Alice Walker", "alice walker"],
    ["\u0410lice W\u0430lker", "alice walker"], // Cyrillic А and а
    ["ｗａｌｋｅｒ", "walker"], // fullwidth, folded by NFKD
    ["Alicé", "alice"], // combining mark dropped
    ["𝐀𝐥𝐢𝐜𝐞", "alice"], // mathematical bold
    ["Alice 🛡️ | Walker", "alice walker"],
    ["Ρаураl", skeleton("Paypal")], // Greek Ρ + Cyrillic а, у, р
  ])("skeleton(%j) = %j", (input, expected) => {
    expect(skeleton(input)).toBe(expected);
  });

  it("edit distance with early exit", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("alice", "alice")).toBe(0);
    expect(editDistance("alice", "alicee", 1)).toBe(1);
    expect(editDistance("alice", "bob", 1)).toBe(2);
  });
});

describe("checkMember", () => {
  it.each<[string, ChatUser, string | null]>([
    ["Cyrillic look-alike of an admin's name", { id: "10", name: "\u0410lice W\u0430lker" }, "lookalike"],
    ["same display name, other account", { id: "11", name: "Alice Walker" }, "identical_name"],
    ["look-alike username", { id: "12", name: "Someone", username: "aIice_w" }, "lookalike"],
    ["admin name plus Support", { id: "13", name: "Alice Walker | Support" }, "decorated"],
    ["admin username plus admin", { id: "14", name: "x", username: "bobthebuilder_admin" }, "decorated"],
    ["one letter off", { id: "15", name: "Alice Walkr" }, "similar"],
    ["generic official title", { id: "16", name: "Technical Support" }, "official_title"],
    ["all capitals", { id: "25", name: "ALICE WALKER" }, "lookalike"],
    ["unrelated member", { id: "17", name: "Carol Jones", username: "carolj" }, null],
    ["short name is not matched by distance", { id: "18", name: "Rob" }, null],
    ["the admin themself", { id: "1", name: "Alice Walker", username: "alice_w" }, null],
    ["the bot's own name is not an admin to imitate", { id: "19", name: "svc" }, null],
  ])("%s", (_, member, technique) => {
    const f = checkMember(member, prepared);
    if (technique === null) expect(f).toBeNull();
    else expect(f?.technique).toBe(technique);
  });

  it("audit lists suspects strongest first and skips exempt and bot accounts", () => {
    const members: ChatUser[] = [
      { id: "20", name: "Alice Walkr" },
      { id: "21", name: "\u0410lice Walker" },
      { id: "22", name: "Carol" },
      { id: "23", name: "Alice Walker", isBot: true },
      { id: "24", name: "Bob" },
    ];
    const found = auditMembers(members, admins, new Set(["24"]));
    expect(found.map((f) => f.member.id)).toEqual(["21", "20"]);
    expect(found[0]?.reason).toMatch(/look-alike characters/u);
    expect(found[0]?.admin?.id).toBe("1");
  });
});
