import { conversationContract } from "@svc/bot-kernel";
import { beforeAll, describe, expect, it } from "vitest";
import { discordConversationDriver, warmDiscordDatabase } from "./testing/conversation-driver.js";

// Migrating the shared in-memory database takes seconds: once, before the first conversation.
beforeAll(warmDiscordDatabase, 60_000);

// The shared admin/member/raider conversation, through the real discord.js client over a fake gateway and REST on 127.0.0.1.
conversationContract({ describe, it, expect }, "Discord over the fake gateway and REST on 127.0.0.1", discordConversationDriver);
