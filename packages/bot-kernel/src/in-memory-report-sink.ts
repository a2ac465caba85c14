import type { CommunityReport, ReportSink } from "./ports.js";

export class InMemoryReportSink implements ReportSink {
  readonly reports: (CommunityReport & { readonly id: string })[] = [];

  async file(report: CommunityReport): Promise<{ readonly id: string }> {
    const id = `rpt_${String(this.reports.length + 1).padStart(6, "0")}`;
    this.reports.push({ ...report, id });
    return { id };
  }
}
