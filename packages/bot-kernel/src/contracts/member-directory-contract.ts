import type { ChatUser } from "../chat-port.js";
import { at, fresh, PLATFORM, type MakeBotStores, type TestApi } from "./fixture.js";

export function memberDirectoryContract(t: TestApi, name: string, make: MakeBotStores): void {
  const { describe, it, expect } = t;
  describe(`MemberDirectory contract: ${name}`, () => {
    it("answers whether a member is new or renamed, and keeps the latest name and sighting", async () => {
      const { members } = (await make()).stores(PLATFORM);
      const chat = fresh("chat");
      const id = fresh("user");
      expect(await members.remember(chat, { id, name: "Mallory", username: "mallory" }, at(0))).toBe(true);
      expect(await members.remember(chat, { id, name: "Mallory", username: "mallory" }, at(1))).toBe(false);
      expect(await members.get(chat, id)).toEqual({ id, name: "Mallory", username: "mallory", lastSeen: at(1).toISOString() });
      expect(await members.remember(chat, { id, name: "Alice Walker", username: "mallory" }, at(2))).toBe(true);
      expect(await members.remember(chat, { id, name: "Alice Walker", username: "alice_w" }, at(3))).toBe(true);
      expect(await members.remember(chat, { id, name: "Alice Walker" }, at(4))).toBe(true);
      expect(await members.remember(chat, { id, name: "Alice Walker" }, at(5))).toBe(false);
      expect(await members.get(chat, id)).toEqual({ id, name: "Alice Walker", lastSeen: at(5).toISOString() });
    });

    it("keeps bots marked, and Unicode names as they are", async () => {
      const { members } = (await make()).stores(PLATFORM);
      const chat = fresh("chat");
      const bot: ChatUser = { id: fresh("user"), name: "svc", username: "svc_bot", isBot: true };
      const cyrillic: ChatUser = { id: fresh("user"), name: "Аlice Wаlker 🛡", username: "alice_w_support" };
      await members.remember(chat, bot, at(0));
      await members.remember(chat, cyrillic, at(1));
      expect(await members.get(chat, bot.id)).toEqual({ ...bot, lastSeen: at(0).toISOString() });
      expect(await members.get(chat, cyrillic.id)).toEqual({ ...cyrillic, lastSeen: at(1).toISOString() });
    });

    it("finds a member by username, case-insensitively and with or without @", async () => {
      const { members } = (await make()).stores(PLATFORM);
      const chat = fresh("chat");
      const id = fresh("user");
      await members.remember(chat, { id, name: "Trent", username: "Trent_Admin" }, at(0));
      expect((await members.findByUsername(chat, "trent_admin"))?.id).toBe(id);
      expect((await members.findByUsername(chat, "@TRENT_ADMIN"))?.id).toBe(id);
      expect(await members.findByUsername(chat, "trent")).toBeNull();
      expect(await members.findByUsername(fresh("chat"), "trent_admin")).toBeNull();
    });

    it("lists a chat's members, and keeps chats and platforms apart", async () => {
      const f = await make();
      const one = f.stores("platform-one").members;
      const two = f.stores("platform-two").members;
      const chat = fresh("chat");
      const [a, b, c] = [fresh("user"), fresh("user"), fresh("user")];
      await one.remember(chat, { id: a, name: "A" }, at(0));
      await one.remember(chat, { id: b, name: "B", username: "bee" }, at(1));
      await one.remember(fresh("chat"), { id: c, name: "C" }, at(2));
      await two.remember(chat, { id: c, name: "C elsewhere" }, at(3));
      expect((await one.list(chat)).map((m) => m.id).sort()).toEqual([a, b].sort());
      expect((await two.list(chat)).map((m) => m.name)).toEqual(["C elsewhere"]);
      expect(await one.get(chat, c)).toBeNull();
      expect(await two.findByUsername(chat, "bee")).toBeNull();
      expect(await one.list(fresh("chat"))).toEqual([]);
    });

    it("stores ids, names and usernames only, whatever else the user object carries", async () => {
      const f = await make();
      const { members } = f.stores(PLATFORM);
      const chat = fresh("chat");
      const id = fresh("user");
      const secret = fresh("said-in-the-message");
      const carrying = { id, name: "Eve", username: "eve", text: `hello ${secret}`, bio: `bio ${secret}`, lastMessage: { text: secret } } as ChatUser;
      await members.remember(chat, carrying, at(0));
      const got = await members.get(chat, id);
      expect(got).toEqual({ id, name: "Eve", username: "eve", lastSeen: at(0).toISOString() });
      expect(Object.keys(got ?? {}).sort()).toEqual(["id", "lastSeen", "name", "username"]);
      expect(await f.dump()).not.toContain(secret);
    });
  });
}
