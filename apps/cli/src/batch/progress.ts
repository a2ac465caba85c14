import type { Paint } from "../io.js";

export interface ProgressSource {
  readonly totalBytes: number | null;
  bytesRead(): number;
}

export interface Progress {
  /** Counts one screened entity; redraws at most every 100 ms. */
  tick(n?: number): void;
  /** Writes a message above the bar (the bar is redrawn below it). */
  log(text: string): void;
  /** Removes the bar. */
  done(): void;
}

const WIDTH = 24;

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * A one-line progress bar on a terminal's stderr: percent of the input read, entities done,
 * rate and ETA (from bytes, so no pre-count of lines is needed). Off a terminal it writes nothing
 * but the messages, so logs and pipes stay clean.
 */
export function progressBar(stream: NodeJS.WritableStream, enabled: boolean, source: ProgressSource, paint: Paint, now: () => number = () => performance.now()): Progress {
  const started = now();
  let count = 0;
  let last = 0;
  let shown = false;
  const draw = (): void => {
    const elapsed = (now() - started) / 1000;
    const rate = elapsed > 0 ? count / elapsed : 0;
    const total = source.totalBytes;
    const read = source.bytesRead();
    let bar = "";
    let eta = "";
    if (total !== null && total > 0) {
      const frac = Math.min(1, read / total);
      const full = Math.round(frac * WIDTH);
      bar = `${paint("cyan", "█".repeat(full))}${paint("gray", "░".repeat(WIDTH - full))} ${String(Math.floor(frac * 100)).padStart(3)}%  `;
      const byteRate = elapsed > 0 ? read / elapsed : 0;
      eta = `  ETA ${byteRate > 0 ? formatDuration((total - read) / byteRate) : "--:--"}`;
    }
    stream.write(`\r\u001b[K${bar}${count.toLocaleString("en-US")} screened  ${Math.round(rate).toLocaleString("en-US")}/s${eta}`);
    shown = true;
  };
  const clear = (): void => {
    if (shown) stream.write("\r\u001b[K");
    shown = false;
  };
  return {
    tick(n = 1) {
      count += n;
      if (!enabled) return;
      const t = now();
      if (t - last >= 100) {
        last = t;
        draw();
      }
    },
    log(text) {
      if (enabled) clear();
      stream.write(`${text}\n`);
      if (enabled && count > 0) draw();
    },
    done() {
      if (enabled) clear();
    },
  };
}
