import { createWriteStream } from "node:fs";
import { resolve } from "node:path";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { CSV_HEADER, type OutputFormat } from "./render.js";

export type { OutputFormat } from "./render.js";
export const OUTPUT_FORMATS = ["jsonl", "csv"] as const;

/** Where rendered results go; writes wait for the stream (backpressure), so memory stays flat. */
export interface ResultWriter {
  readonly format: OutputFormat;
  write(text: string): Promise<void> | void;
  /** Flushes; closes the file (never standard output). */
  end(): Promise<void>;
}

export function outputFormatFor(out: string | undefined, explicit: OutputFormat | undefined): OutputFormat {
  if (explicit) return explicit;
  return out !== undefined && /\.csv$/i.test(out) ? "csv" : "jsonl";
}

/** Opens `out` (a file path) or standard output. An unwritable path is a usage error before any work. */
export async function openOutput(out: string | undefined, format: OutputFormat, io: { stdout: NodeJS.WritableStream; cwd: string }): Promise<ResultWriter> {
  let stream: NodeJS.WritableStream = io.stdout;
  let close = async (): Promise<void> => {};
  if (out !== undefined && out !== "-") {
    // A 1 MB buffer: the screening thread keeps working while the previous blocks reach the disk.
    const file = createWriteStream(resolve(io.cwd, out), { highWaterMark: 1 << 20 });
    await new Promise<void>((ok, fail) => {
      file.once("open", () => ok());
      file.once("error", (e: NodeJS.ErrnoException) =>
        fail(new CliError(`Cannot write ${out}: ${e.code === "ENOENT" ? "its directory does not exist" : e.code === "EACCES" ? "permission denied" : e.code === "EISDIR" ? "it is a directory" : e.message}.`, EXIT.usage, "Choose another --out path.")),
      );
    });
    stream = file;
    close = () => new Promise<void>((ok, fail) => {
      file.once("error", fail);
      file.end(() => ok());
    });
  }
  if (format === "csv") await write(stream, CSV_HEADER);
  // Small writes are gathered into ~64 KB blocks: one syscall per block, not per result.
  let buffer = "";
  const flush = (): Promise<void> | void => {
    if (buffer === "") return;
    const text = buffer;
    buffer = "";
    return write(stream, text);
  };
  return {
    format,
    write(text) {
      buffer += text;
      if (buffer.length >= 65_536) return flush();
    },
    async end() {
      await flush();
      await close();
    },
  };
}
