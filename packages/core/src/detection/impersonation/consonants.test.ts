import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashString } from "../string-filter.js";
import { consonantOutline, outlineHash } from "./consonants.js";
import { detectImpersonation } from "./index.js";
import { parse, testIndex } from "./test-support.js";

const lookalike = (input: string) => detectImpersonation(parse(input), testIndex()).find((f) => f.code === "domain.lookalike_brand");

describe("same consonants, other vowels and doubled letters", () => {
  it("outlines a name by its consonants, each run once", () => {
    expect(consonantOutline("myetherwallet")).toBe("mthrwlt");
    expect(consonantOutline("meytherwellat")).toBe("mthrwlt");
    expect(consonantOutline("my-ether1wallet")).toBe("mthrwlt");
  });

  it("hashes the outline without building it, as hashString of the outline", () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[a-z0-9-]{0,30}$/), fc.string({ maxLength: 20 })), (s) => {
        expect(outlineHash(s)).toBe(hashString(consonantOutline(s)));
      }),
      { numRuns: 2000 },
    );
  });

  it.each(["meytherwellat.com", "myethrwelllet.com", "myetharwolllet.com"])("%s reads as myetherwallet (three or four edits away)", (input) => {
    const f = lookalike(input);
    expect(f?.evidence).toMatchObject({ brand: "myetherwallet", technique: "consonants" });
    expect(f?.strength).toBe(0.87);
    expect(f?.message).toContain("same consonants");
  });

  it.each([
    "etherscene.com", // a short name (etherscan): outlines collide too easily below eleven letters
    "nyetherwallet.com", // another first letter: caught, if at all, by the edit-distance rules
    "mathrowlate.com", // the same outline but five edits away
    "myethrwllt.com", // ten letters: below the eleven the rule starts at
    "virginmenu.com", // English words run together: a name (virginmoney's outline)
    "virginmoon.com",
    "discovercrude.com",
  ])("%s is not read this way", (input) => {
    expect(lookalike(input)?.evidence.technique).not.toBe("consonants");
  });
});
