import type { CommunityReport, ReportSink } from "@svc/bot-kernel";
import type { ReportRepository } from "@svc/core";

/**
 * Community reports from chat into the API's report store (the one `/v1/report` writes), so
 * they feed screening like any other report. The reporter is `platform:userId` (the API's own
 * are `account:…`): one user reporting one entity again replaces the earlier report, across
 * every chat. The report keeps which chat it came from; the message around it is never passed.
 */
export class ReportRepositorySink implements ReportSink {
  constructor(private readonly reports: ReportRepository) {}

  async file(r: CommunityReport): Promise<{ readonly id: string }> {
    const { report } = await this.reports.file(
      {
        reporter_id: `${r.reporter.platform}:${r.reporter.userId}`,
        entity: { type: r.entity.type, value: r.entity.value, id: r.entity.id },
        category: r.category,
        description: `Filed from ${r.channel.platform} chat ${r.channel.chatId}`,
        feedback: r.feedback ?? null,
      },
      new Date(r.reportedAt),
    );
    return { id: report.id };
  }
}
