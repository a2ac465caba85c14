import type { ChatUser } from "./chat-port.js";
import type { MemberDirectory, MemberSeen, SeenMember, StatCounter, StatIncrement, Stats, StatsStore } from "./ports.js";
import type { ChatSettings, SettingsStore } from "./settings.js";

/**
 * What keeps the message path off the database (docs/decisions/0054): a chat's settings are
 * read from a copy checked against the store's version at most every `settingsRevalidateMs`;
 * counters and the last-seen times of members already known are added up in memory and written
 * in batches, at most `flushIntervalMs` after the first of them or as soon as `maxPending`
 * are waiting, and on `close()`. A crash loses at most what one interval gathered (counters,
 * last-seen times), never settings, members' names or anything a command changed.
 *
 * Each part is used only when the store has the batch method it needs (`StatsStore.addMany`,
 * `MemberDirectory.touch`, `SettingsStore.version`); with any other store every call goes
 * straight through, as before.
 */
export interface StoreBufferOptions {
  /** Longest a counter or a last-seen time waits in memory (ms). Default 1,000. */
  readonly flushIntervalMs?: number;
  /** Waiting entries (distinct counters plus members) that start a write at once. Default 1,000. */
  readonly maxPending?: number;
  /** How long a chat's cached settings are used before their version is asked again (ms). Default 1,000. */
  readonly settingsRevalidateMs?: number;
  /** Chats whose settings are kept (the least recently loaded are dropped first). Default 10,000. */
  readonly maxCachedChats?: number;
  /** Members whose name is remembered between messages. Default 100,000. */
  readonly maxKnownMembers?: number;
  /** A known member still goes through the store this often (ms), so a row evicted by the store's bound comes back. Default 10 minutes. */
  readonly memberRecheckMs?: number;
  /** A write that failed in the background (it is retried with the next one). Default: console.error. */
  readonly onError?: (error: unknown) => void;
}

interface CachedSettings {
  readonly settings: ChatSettings | null;
  /** The store's version the copy was read at; -1 for a copy the kernel saved or read itself (checked on its next revalidation). */
  readonly version: number;
  checkedAt: number;
}

const now = (): number => performance.now();
const key = (a: string, b: string): string => `${a}\u0000${b}`;
const identity = (u: ChatUser): string => `${u.name}\u0000${u.username ?? ""}\u0000${u.isBot === true}`;

export class StoreBuffers {
  /** The stats port the kernel's features use: batched when the store has `addMany`. */
  readonly stats: StatsStore;
  /** The member directory the kernel's features use: repeat sightings batched when the store has `touch`. */
  readonly members: MemberDirectory;

  private readonly o: Required<Omit<StoreBufferOptions, "onError">> & Pick<StoreBufferOptions, "onError">;
  private pendingStats = new Map<string, StatIncrement>();
  private pendingSeen = new Map<string, MemberSeen>();
  private readonly known = new Map<string, { readonly identity: string; readonly at: number }>();
  private readonly cached = new Map<string, CachedSettings>();
  /** Bumped by every save through the kernel: a read that started before it does not overwrite its copy. */
  private readonly generation = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** A background write is chained and has not started: another would find nothing to write. */
  private writeWaiting = false;

  constructor(
    private readonly inner: { readonly stats: StatsStore; readonly members: MemberDirectory; readonly settings: SettingsStore },
    options: StoreBufferOptions = {},
  ) {
    this.o = {
      flushIntervalMs: options.flushIntervalMs ?? 1000,
      maxPending: options.maxPending ?? 1000,
      settingsRevalidateMs: options.settingsRevalidateMs ?? 1000,
      maxCachedChats: options.maxCachedChats ?? 10_000,
      maxKnownMembers: options.maxKnownMembers ?? 100_000,
      memberRecheckMs: options.memberRecheckMs ?? 10 * 60_000,
      ...(options.onError ? { onError: options.onError } : {}),
    };
    const statsStore = inner.stats;
    this.stats = statsStore.addMany
      ? {
          add: async (chatId: string, counter: StatCounter, by = 1): Promise<void> => {
            const k = key(chatId, counter);
            const prev = this.pendingStats.get(k);
            this.pendingStats.set(k, { chatId, counter, by: (prev?.by ?? 0) + by });
            this.queued();
          },
          get: async (chatId: string): Promise<Stats> => {
            // A write under way is waited for, so what it carries is counted once.
            await this.chain;
            const stored = { ...(await statsStore.get(chatId)) } as Record<StatCounter, number>;
            for (const p of this.pendingStats.values()) if (p.chatId === chatId) stored[p.counter] += p.by;
            return stored;
          },
        }
      : statsStore;
    const members = inner.members;
    this.members = members.touch
      ? {
          remember: async (chatId: string, user: ChatUser, at: Date): Promise<boolean> => {
            const k = key(chatId, user.id);
            const seen = this.known.get(k);
            const id = identity(user);
            if (seen && seen.identity === id && now() - seen.at < this.o.memberRecheckMs) {
              this.pendingSeen.set(k, { chatId, userId: user.id, at });
              this.queued();
              return false;
            }
            const changed = await members.remember(chatId, user, at);
            this.pendingSeen.delete(k);
            this.known.delete(k);
            this.known.set(k, { identity: id, at: now() });
            if (this.known.size > this.o.maxKnownMembers) this.known.delete(this.known.keys().next().value as string);
            return changed;
          },
          list: (chatId) => members.list(chatId),
          findByUsername: (chatId, username) => members.findByUsername(chatId, username),
          get: (chatId, userId): Promise<SeenMember | null> => members.get(chatId, userId),
        }
      : members;
  }

  /**
   * A chat's settings for scanning a message: the cached copy while it is younger than
   * `settingsRevalidateMs`, then the store's version decides whether to read them again.
   * Without `SettingsStore.version`, the store every time.
   */
  async settingsForMessage(chatId: string): Promise<ChatSettings | null> {
    const store = this.inner.settings;
    if (!store.version) return store.get(chatId);
    const t = now();
    const hit = this.cached.get(chatId);
    if (hit && t - hit.checkedAt < this.o.settingsRevalidateMs) return hit.settings;
    const gen = this.generation.get(chatId) ?? 0;
    const version = await store.version(chatId);
    if (hit && hit.version === version) {
      hit.checkedAt = t;
      return hit.settings;
    }
    const settings = await store.get(chatId);
    // A save through the kernel while this read was under way has the newer copy: keep it.
    if ((this.generation.get(chatId) ?? 0) === gen) this.cache(chatId, { settings, version, checkedAt: t });
    return settings;
  }

  /** After the kernel saved a chat's settings: the copy for messages is what was saved. */
  saved(s: ChatSettings): void {
    this.replace(s.chatId, s);
  }

  /**
   * After the kernel read a chat's settings from the store itself (a command, a payment, the
   * timer): the copy for messages is that newer read (null: the chat has none).
   */
  read(chatId: string, s: ChatSettings | null): void {
    this.replace(chatId, s);
  }

  private replace(chatId: string, s: ChatSettings | null): void {
    if (!this.inner.settings.version) return;
    this.generation.set(chatId, (this.generation.get(chatId) ?? 0) + 1);
    this.cache(chatId, { settings: s, version: -1, checkedAt: now() });
  }

  /** Writes every waiting counter and last-seen time now; rejects when the store does (they stay waiting). */
  flush(): Promise<void> {
    const run = this.chain.then(() => this.write());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Stops the timer and writes what is waiting (on shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Counters and members waiting to be written. */
  get pending(): number {
    return this.pendingStats.size + this.pendingSeen.size;
  }

  private cache(chatId: string, entry: CachedSettings): void {
    this.cached.delete(chatId);
    this.cached.set(chatId, entry);
    if (this.cached.size > this.o.maxCachedChats) {
      const oldest = this.cached.keys().next().value as string;
      this.cached.delete(oldest);
      this.generation.delete(oldest);
    }
  }

  private queued(): void {
    if (this.pending >= this.o.maxPending) {
      this.background();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => this.background(), this.o.flushIntervalMs);
    this.timer.unref?.();
  }

  private background(): void {
    if (this.writeWaiting) return;
    this.writeWaiting = true;
    this.flush().catch((e: unknown) => (this.o.onError ? this.o.onError(e) : console.error("bot store write failed; retrying with the next one", e)));
  }

  private async write(): Promise<void> {
    this.writeWaiting = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const stats = this.pendingStats;
    const seen = this.pendingSeen;
    this.pendingStats = new Map();
    this.pendingSeen = new Map();
    let failure: unknown = null;
    if (stats.size > 0) {
      try {
        await this.inner.stats.addMany?.([...stats.values()]);
      } catch (e) {
        failure = e;
        // Added back under whatever arrived meanwhile: nothing counted twice, nothing lost.
        for (const [k, p] of stats) {
          const cur = this.pendingStats.get(k);
          this.pendingStats.set(k, { ...p, by: p.by + (cur?.by ?? 0) });
        }
      }
    }
    if (seen.size > 0) {
      try {
        await this.inner.members.touch?.([...seen.values()]);
      } catch (e) {
        failure ??= e;
        for (const [k, p] of seen) if (!this.pendingSeen.has(k)) this.pendingSeen.set(k, p);
      }
    }
    if (failure !== null) {
      if (!this.timer && this.pending > 0) {
        this.timer = setTimeout(() => this.background(), this.o.flushIntervalMs);
        this.timer.unref?.();
      }
      throw failure;
    }
  }
}
