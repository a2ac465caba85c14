import type { AntiRaidSettings } from "./settings.js";

/**
 * Join-rate tracking for anti-raid: N joins within M minutes starts a lockdown. Only join
 * times and user ids are kept, in memory, for the length of the window (they are needed to
 * mute the raiders who arrived before the threshold tripped). Bounded per chat and in chats.
 */
export interface Join {
  readonly at: number;
  readonly userId: string;
}

export class JoinWindows {
  private readonly chats = new Map<string, Join[]>();

  constructor(private readonly maxChats = 10_000) {}

  /** Records a join; returns the joins inside the window, this one included. */
  record(chatId: string, join: Join, cfg: AntiRaidSettings): readonly Join[] {
    const since = join.at - cfg.minutes * 60_000;
    let joins = this.chats.get(chatId);
    if (!joins) {
      joins = [];
      this.chats.set(chatId, joins);
      while (this.chats.size > this.maxChats) this.chats.delete(this.chats.keys().next().value as string);
    }
    joins.push(join);
    let drop = 0;
    while (drop < joins.length && (joins[drop] as Join).at <= since) drop++;
    // Never more than the threshold is needed to decide; keep a little slack for the raiders' ids.
    drop = Math.max(drop, joins.length - cfg.joins * 2);
    if (drop > 0) joins.splice(0, drop);
    return joins;
  }

  clear(chatId: string): void {
    this.chats.delete(chatId);
  }
}

export const raidTriggered = (joins: readonly Join[], cfg: AntiRaidSettings): boolean => cfg.enabled && joins.length >= cfg.joins;

/**
 * Who a lockdown muted, per chat, so lifting the lockdown (on time or early) can unmute them
 * rather than rely on the platform's own expiry. Ids only, bounded, kept in memory: after a
 * restart the platform still lifts each mute at its own time.
 */
export class LockdownMutes {
  private readonly chats = new Map<string, Set<string>>();

  constructor(
    private readonly maxPerChat = 5_000,
    private readonly maxChats = 10_000,
  ) {}

  add(chatId: string, userId: string): void {
    let s = this.chats.get(chatId);
    if (!s) {
      s = new Set();
      this.chats.set(chatId, s);
      while (this.chats.size > this.maxChats) this.chats.delete(this.chats.keys().next().value as string);
    }
    if (s.size < this.maxPerChat) s.add(userId);
  }

  /** The muted ids, forgotten as they are handed out. */
  take(chatId: string): string[] {
    const s = this.chats.get(chatId);
    this.chats.delete(chatId);
    return s ? [...s] : [];
  }
}
