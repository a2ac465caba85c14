import type { Clock } from "@svc/bot-kernel";
import type { SlackInstallationRecord, TypeOrmSlackInstallations } from "@svc/persistence";
import type { TokenCipher } from "./token-cipher.js";

export interface Installation {
  readonly teamId: string;
  readonly botToken: string;
  readonly botUserId: string;
  readonly botId: string | null;
  readonly installedBy: string | null;
}

/**
 * Per-workspace installations: tokens are sealed before they reach the store and opened on the
 * way out; a short cache keeps the hot path (one lookup per event) off the database. Deleting
 * drops the cache entry at once, so an uninstalled workspace gets nothing more from us.
 */
export class Installations {
  private readonly cache = new Map<string, { readonly at: number; readonly value: Installation | null }>();

  constructor(
    private readonly store: TypeOrmSlackInstallations,
    private readonly cipher: TokenCipher,
    private readonly clock: Clock,
    private readonly ttlMs = 60_000,
  ) {}

  async save(i: Installation & { readonly enterpriseId: string | null; readonly scopes: string }): Promise<void> {
    const record: SlackInstallationRecord = {
      teamId: i.teamId,
      enterpriseId: i.enterpriseId,
      botUserId: i.botUserId,
      botId: i.botId,
      botTokenSealed: this.cipher.seal(i.botToken, i.teamId),
      scopes: i.scopes,
      installedBy: i.installedBy,
      installedAt: this.clock.now(),
    };
    await this.store.save(record);
    this.cache.delete(i.teamId);
  }

  async find(teamId: string): Promise<Installation | null> {
    const now = this.clock.now().getTime();
    const hit = this.cache.get(teamId);
    // "Not installed" is remembered briefly only: another replica may have just finished an install.
    if (hit && now - hit.at < (hit.value ? this.ttlMs : Math.min(this.ttlMs, 5000))) return hit.value;
    const r = await this.store.find(teamId);
    const token = r ? this.cipher.open(r.botTokenSealed, r.teamId) : null;
    const value = r && token ? { teamId: r.teamId, botToken: token, botUserId: r.botUserId, botId: r.botId, installedBy: r.installedBy } : null;
    this.cache.set(teamId, { at: now, value });
    if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value as string);
    return value;
  }

  async delete(teamId: string): Promise<boolean> {
    this.cache.delete(teamId);
    return this.store.delete(teamId);
  }
}
