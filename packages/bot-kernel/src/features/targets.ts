import type { ChatPort, ChatUser, ResolvedMember, UserRef } from "../chat-port.js";
import type { MemberDirectory } from "../ports.js";
import type { CommandContext } from "./feature.js";

/** Who a command names: a reply's author, a seen member by username or id, an admin, or the platform's answer. */
export async function resolveTarget(chat: ChatPort, members: MemberDirectory, ctx: CommandContext, ref: UserRef | null): Promise<ResolvedMember | ChatUser | null> {
  if (ref === null) return ctx.replyToUser ?? null;
  let r: UserRef = ref;
  if (ref.kind === "username") {
    // Platforms cannot look up a username: the directory of seen members can.
    const seen = await members.findByUsername(ctx.chatId, ref.username);
    if (seen) r = { kind: "id", id: seen.id };
    else {
      const admin = (await chat.listAdmins(ctx.chatId)).find((a) => a.username?.toLowerCase() === ref.username);
      if (admin) return admin;
    }
  }
  const m = await chat.resolveMember(ctx.chatId, r);
  if (m) return m;
  return r.kind === "id" ? ((await members.get(ctx.chatId, r.id)) ?? null) : null;
}

/** Users are kept as `id:<id>` when the id is known, else `@username`. */
export async function resolveUserEntry(members: MemberDirectory, chatId: string, value: string): Promise<string | null> {
  const v = value.trim();
  if (/^-?\d{1,20}$/u.test(v)) return `id:${v}`;
  const m = /^@?([a-z]\w{2,63})$/iu.exec(v);
  if (!m) return null;
  const username = (m[1] as string).toLowerCase();
  const seen = await members.findByUsername(chatId, username);
  return seen ? `id:${seen.id}` : `@${username}`;
}
