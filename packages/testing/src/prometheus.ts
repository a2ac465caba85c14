import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetrics } from "prom2javascript";

export type { PromMetrics };

/**
 * Parses a Prometheus text exposition (as a scraper would), labelled histograms included. A
 * sample whose value is NaN (valid in the format: prom-client's event-loop gauges between two
 * samples) is left out, because prom2javascript cannot represent it; its series reads as absent.
 */
export function parsePrometheusText(text: string): Promise<PromMetrics> {
  const lines = text.split("\n").filter((l) => l.startsWith("#") || !/\snan(?:\s|$)/iu.test(l));
  return getMetricsFromIterator(lines[Symbol.iterator]());
}

const matches = (labels: Record<string, string>, want: Record<string, string>): boolean => Object.entries(want).every(([k, v]) => labels[k] === v);

/** The value of a counter or gauge series (0 when the series is absent, as Prometheus reads a counter not yet created). */
export function seriesValue(metrics: PromMetrics, name: string, labels: Record<string, string> = {}): number {
  const family = metrics[name];
  if (!family) return 0;
  if (family.type === "histogram" || family.type === "summary") throw new Error(`${name} is a ${family.type}; use histogramSeries`);
  return (family.data as PromData[]).filter((d) => matches(d.labels, labels)).reduce((sum, d) => sum + d.value, 0);
}

/** The series of a histogram whose labels include `labels`. */
export function histogramSeries(metrics: PromMetrics, name: string, labels: Record<string, string> = {}): PromHistogramData[] {
  const family = metrics[name];
  if (!family) return [];
  if (family.type !== "histogram") throw new Error(`${name} is a ${family.type}, not a histogram`);
  return (family.data as PromHistogramData[]).filter((d) => matches(d.labels, labels));
}
