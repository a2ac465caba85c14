/**
 * SPEC: purchases made with platform 1's in-app currency can be refunded when requested
 * within 14 business days. Business days here are Monday to Friday in UTC; public holidays
 * differ per country and are not counted out, which only ever makes the window shorter
 * than a local reading would, never longer.
 */
export const REFUND_BUSINESS_DAYS = 14;

/** The instant `days` business days after `from` (same time of day). */
export function addBusinessDays(from: Date, days: number): Date {
  const d = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  return d;
}

export function refundWindowOpen(paidAt: Date, now: Date, businessDays = REFUND_BUSINESS_DAYS): boolean {
  return now.getTime() >= paidAt.getTime() && now.getTime() <= addBusinessDays(paidAt, businessDays).getTime();
}
