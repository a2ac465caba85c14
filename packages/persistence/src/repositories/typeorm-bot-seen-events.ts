import type { DataSource } from "typeorm";
import { affectedOf } from "./sql.js";

/**
 * Ids of inbound platform events already handled (`bot_seen_events`): a platform that
 * redelivers an event (WhatsApp retries a webhook it thinks failed) gets it processed once,
 * across restarts and processes. Ids only; pruned by age.
 */
export class TypeOrmBotSeenEvents {
  constructor(
    private readonly ds: DataSource,
    private readonly platform: string,
  ) {}

  /** True the first time an id is seen, false for every redelivery (also when two arrive at once). */
  async firstSight(eventId: string, at: Date): Promise<boolean> {
    const rows = (await this.ds.manager.query(
      `INSERT INTO bot_seen_events (platform, event_id, seen_at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT DO NOTHING RETURNING event_id`,
      [this.platform, eventId, at.toISOString()],
    )) as unknown[];
    return rows.length === 1;
  }

  /** Forgets ids seen before `before`; answers how many. */
  async prune(before: Date): Promise<number> {
    return affectedOf(await this.ds.manager.query(`DELETE FROM bot_seen_events WHERE platform = $1 AND seen_at < $2::timestamptz`, [this.platform, before.toISOString()]));
  }
}
