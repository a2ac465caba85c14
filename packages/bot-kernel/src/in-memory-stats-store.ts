import { STAT_COUNTERS, type StatCounter, type Stats, type StatsStore } from "./ports.js";

const zero = (): Record<StatCounter, number> => Object.fromEntries(STAT_COUNTERS.map((c) => [c, 0])) as Record<StatCounter, number>;

export class InMemoryStatsStore implements StatsStore {
  private readonly rows = new Map<string, Record<StatCounter, number>>();

  async add(chatId: string, counter: StatCounter, by = 1): Promise<void> {
    let row = this.rows.get(chatId);
    if (!row) this.rows.set(chatId, (row = zero()));
    row[counter] += by;
  }

  async get(chatId: string): Promise<Stats> {
    return { ...(this.rows.get(chatId) ?? zero()) };
  }

  dump(): ReadonlyMap<string, Stats> {
    return this.rows;
  }
}
