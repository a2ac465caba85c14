import { setFlagsFromString } from "node:v8";

/**
 * V8's young generation is kept at its starting size while the API loads and opens its database,
 * and may grow again once it serves (docs/decisions/0090).
 *
 * Loading the modules, the reference data and the look-alike index allocates a few hundred MB of
 * short-lived objects; V8 doubles its two semi-spaces as they fill (`--semi-space-growth-factor`,
 * default 2) up to 2 × 16 MB, and an idle process keeps them committed until its memory reducer
 * runs, about 40 s after the last activity. With the factor at 1 while starting, the semi-spaces
 * stay at their initial size. V8 reads this flag each time it would grow the young generation, so
 * setting it at run time takes effect (as `--liftoff-only` in @svc/persistence, decision 0080).
 *
 * main.ts imports this module alone and only then imports the rest of the API (run.ts)
 * dynamically: a module's static imports are all loaded (read, parsed, compiled) before the first
 * of them is evaluated, and loading the API's modules alone grew the young generation to 2 × 8 MB
 * (docs/decisions/0099).
 */
setFlagsFromString("--semi-space-growth-factor=1");

/** Once serving: V8's default factor again, so that the young generation grows with the load. */
export function youngGenerationMayGrow(): void {
  setFlagsFromString("--semi-space-growth-factor=2");
}
