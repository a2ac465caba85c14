import { parseEntity } from "../entities/parse-entity.js";
import type { EntityError } from "../entities/types.js";
import type { Thresholds } from "../detection/types.js";
import { screenParsed, type Screened, type ScreeningDeps, type ScreenRequest } from "./screen-entity.js";

export const MAX_BATCH = 100;

export type BatchItem =
  | { readonly index: number; readonly status: "ok"; readonly result: Screened }
  | { readonly index: number; readonly status: "error"; readonly error: EntityError };

/**
 * Screens up to 100 entities. Identical entities (same canonical id, however written) are
 * evaluated once and answered for each position; results keep the input order.
 */
export async function screenBatch(requests: readonly ScreenRequest[], deps: ScreeningDeps, options: { thresholds?: Thresholds; concurrency?: number } = {}): Promise<readonly BatchItem[]> {
  const parsed = requests.map((r) => parseEntity(r.entity_value, r.type === undefined ? {} : { type: r.type }));
  const unique = new Map<string, Promise<Screened>>();
  const queue: (() => Promise<void>)[] = [];
  for (const p of parsed) {
    if (!p.ok || unique.has(p.entity.id)) continue;
    let resolve!: (s: Screened) => void;
    let reject!: (e: unknown) => void;
    unique.set(p.entity.id, new Promise<Screened>((res, rej) => { resolve = res; reject = rej; }));
    const entity = p.entity;
    queue.push(() => screenParsed(entity, deps, options.thresholds ? { thresholds: options.thresholds } : {}).then(resolve, reject));
  }
  const workers = Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await job();
  });
  await Promise.all(workers);
  return Promise.all(parsed.map(async (p, index): Promise<BatchItem> => {
    if (!p.ok) return { index, status: "error", error: p.error };
    const screened = await (unique.get(p.entity.id) as Promise<Screened>);
    // Same evaluation, but each position keeps what its caller wrote.
    const result = screened.entity.input === p.entity.input ? screened : { ...screened, entity: p.entity, verdict: { ...screened.verdict, entity: { ...screened.verdict.entity, input: p.entity.input } } };
    return { index, status: "ok", result };
  }));
}
