// The API's one collection before serving (decision 0099): it collects, and leaves no `gc` behind.
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { collectStartGarbage } from "./start-garbage.js";

describe("collectStartGarbage", () => {
  it("collects what nothing refers to any more", async () => {
    let ref: WeakRef<object> | undefined;
    (() => {
      ref = new WeakRef({ payload: new Array(1000).fill("x") });
    })();
    // A WeakRef's target is kept until the task that made it ends.
    await new Promise((r) => setTimeout(r, 0));
    collectStartGarbage();
    expect(ref?.deref()).toBeUndefined();
  });

  it("gives gc() to no context, this one or one made later", () => {
    collectStartGarbage();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe("undefined");
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});
