import { displayWidth, padEnd } from "../io.js";

/** One page of a cursor-paginated list, as every `/v1` list answers. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly next_cursor: string | null;
}

/** The page at `cursor` (or the first), and with `all` every page after it: the items and the cursor left over. */
export async function collectPages<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, cursor: string | undefined, all: boolean): Promise<{ items: T[]; next: string | null }> {
  const items: T[] = [];
  let next: string | null = null;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    next = page.next_cursor;
    cursor = next ?? undefined;
  } while (all && next);
  return { items, next };
}

/** A table's lines: the header (through `bold`), then the rows, columns padded to fit except the last. */
export function tableLines(header: readonly string[], rows: readonly string[][], bold: (s: string) => string): string[] {
  const widths = header.map((h, k) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[k] ?? ""))));
  const fmt = (r: readonly string[]): string => r.map((c, k) => (k === r.length - 1 ? c : padEnd(c, widths[k] ?? 0))).join("  ");
  return [bold(fmt(header)), ...rows.map(fmt)];
}
