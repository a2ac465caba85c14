import type { ChatSettings, SettingsStore } from "./settings.js";

/** Settings in a Map: for tests and the embedded default (a database adapter replaces it). */
export class InMemorySettingsStore implements SettingsStore {
  private readonly rows = new Map<string, ChatSettings>();

  async get(chatId: string): Promise<ChatSettings | null> {
    return this.rows.get(chatId) ?? null;
  }

  async save(settings: ChatSettings): Promise<void> {
    // A structured copy, so callers cannot mutate what is "stored" behind the store's back.
    this.rows.set(settings.chatId, structuredClone(settings));
  }

  async due(now: Date): Promise<readonly ChatSettings[]> {
    const t = now.getTime();
    return [...this.rows.values()].filter(
      (s) => (s.lockdownUntil !== null && Date.parse(s.lockdownUntil) <= t) || (s.learn !== null && Date.parse(s.learn.until) <= t),
    );
  }

  /** Everything stored, for tests that inspect what is kept. */
  dump(): readonly ChatSettings[] {
    return [...this.rows.values()];
  }
}
