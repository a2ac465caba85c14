import { defaultSettings, type ChatSettings, type Clock, type SettingsStore } from "@svc/bot-kernel";

/**
 * Slack is notify-only, but the kernel's default policy (and `protect`) is `delete`. Every
 * channel's settings are read as `notify` here, so `/svc-status` and the warnings say what really
 * happens; the kernel already refuses to set `delete` or `ban` on a platform that cannot do them.
 */
export class NotifyOnlySettings implements SettingsStore {
  constructor(
    private readonly inner: SettingsStore,
    private readonly platform: string,
    private readonly clock: Clock,
  ) {}

  async get(chatId: string): Promise<ChatSettings | null> {
    return notify((await this.inner.get(chatId)) ?? defaultSettings(chatId, this.platform, this.clock.now()));
  }

  save(settings: ChatSettings): Promise<void> {
    return this.inner.save(notify(settings));
  }

  async due(now: Date): Promise<readonly ChatSettings[]> {
    return (await this.inner.due(now)).map(notify);
  }
}

const notify = (s: ChatSettings): ChatSettings => (s.policy === "notify" ? s : { ...s, policy: "notify" });
