/**
 * Coalesces concurrent calls into batch calls: the calls made during one event-loop turn — and
 * while the previous batches are still running — go to the database as one statement. Under
 * load a check costs a fraction of a round trip per lookup instead of one each; with a single
 * caller nothing waits longer than one `setImmediate`.
 *
 * `run` gets the pending items in call order and returns one result per item, in the same order.
 * When it throws, every caller of that batch gets the error.
 */
export class Coalescer<I, O> {
  private pending: { item: I; resolve(o: O): void; reject(e: unknown): void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
    private readonly options: { readonly maxBatch?: number; readonly maxInFlight?: number } = {},
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= (this.options.maxInFlight ?? 2)) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.pending.length > 0 && this.inFlight < (this.options.maxInFlight ?? 2)) {
      const batch = this.pending.splice(0, this.options.maxBatch ?? 200);
      this.inFlight++;
      this.run(batch.map((p) => p.item))
        .then(
          (out) => {
            if (out.length !== batch.length) throw new Error(`batch returned ${out.length} results for ${batch.length} items`);
            batch.forEach((p, i) => p.resolve(out[i] as O));
          },
        )
        .catch((e: unknown) => batch.forEach((p) => p.reject(e)))
        .finally(() => {
          this.inFlight--;
          if (this.pending.length > 0) this.schedule();
        });
    }
  }
}
