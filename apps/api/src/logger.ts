import { errorForLog } from "@svc/persistence";
import { pino, type DestinationStream, type Logger } from "pino";

/**
 * The JSON log stream (stdout). API keys are redacted, and errors are written without the
 * parameters of a failed statement (errorForLog): an error log never copies request data.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: ["req.headers[\"x-api-key\"]", "headers[\"x-api-key\"]", "req.headers.authorization", "headers.authorization", "apiKey", "key"], serializers: { err: errorForLog } };
  return destination ? pino(options, destination) : pino(options);
}
