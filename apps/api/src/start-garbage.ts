import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * One full garbage collection, once the API has loaded and opened everything and before it
 * listens (docs/decisions/0099).
 *
 * Starting leaves garbage that an idle process keeps: the buffers PGlite read its WebAssembly and
 * files into, what the migrations check and the bootstrap allocated, about 12 MB of V8's heap and
 * 9 MB outside it. V8 collects its old generation when it fills or when its memory reducer finds
 * the process idle, and the reducer judges idleness from the allocation rate it measured at the
 * last collection, which was the start's: an API that gets no requests did not collect for minutes.
 *
 * Node offers no call for a collection without `--expose-gc` on its command line. V8 gives `gc()`
 * to the contexts created while that flag is set, so it is set for the moment one context is made
 * and unset again: no other context (the API's, or a `vm` context made later) gets the function.
 */
export function collectStartGarbage(): void {
  setFlagsFromString("--expose-gc");
  let gc: () => void;
  try {
    gc = runInNewContext("gc") as () => void;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  gc();
}
