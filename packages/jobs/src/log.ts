/** The part of a pino logger the jobs code uses; pino's `Logger` fits. */
export interface LogSink {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLog: LogSink = { info: () => {}, warn: () => {}, error: () => {} };
