/**
 * The hits of a coalesced batch on counters that take a group of hits as one sum (decision
 * 0111): each counter's hits in call order, as groups that can be tried as one — hits that are
 * `alike` (one limit, one window) and whose sum is within the limit — and the indexes of the
 * rest, which go one by one as before.
 */
export function summable<T extends { readonly cost: number; readonly limit: number }>(
  items: readonly T[],
  counterOf: (item: T) => string,
  alike: (a: T, b: T) => boolean,
): { groups: { idx: number[]; sum: T }[]; apart: number[] } {
  const byCounter = new Map<string, number[]>();
  items.forEach((item, i) => {
    const k = counterOf(item);
    const idx = byCounter.get(k);
    if (idx) idx.push(i);
    else byCounter.set(k, [i]);
  });
  const groups: { idx: number[]; sum: T }[] = [];
  const apart: number[] = [];
  for (const idx of byCounter.values()) {
    const first = items[idx[0] as number] as T;
    const cost = idx.reduce((n, i) => n + (items[i] as T).cost, 0);
    if (cost > first.limit || idx.some((i) => !alike(items[i] as T, first))) apart.push(...idx);
    else groups.push({ idx, sum: { ...first, cost } });
  }
  return { groups, apart };
}
