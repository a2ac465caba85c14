import { conversationContract } from "@svc/bot-kernel";
import { describe, expect, it } from "vitest";
import { telegramConversationDriver } from "./conversation-driver.js";

// The shared admin/member/raider conversation, through the Bot API wire format over HTTP.
conversationContract({ describe, it, expect }, "Telegram over the fake Bot API on 127.0.0.1", telegramConversationDriver);
