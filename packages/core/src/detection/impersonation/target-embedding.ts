import type { Finding } from "../types.js";
import type { ImpersonationIndex } from "./build-index.js";
import { finding } from "./findings.js";
import type { HostView } from "./host-view.js";

/** A word of two or three letters and then digits only: "com136347135". */
const SUFFIX_THEN_DIGITS = /^([a-z]{2,3})(\d+)$/;

const endsWithDigit = (w: string): boolean => {
  const c = w.charCodeAt(w.length - 1);
  return c >= 0x30 && c <= 0x39;
};

/** Longest official domain, in labels, looked for inside a host ("amazon.com.au"). */
const MAX_EMBEDDED_LABELS = 4;

/**
 * Target embedding: the full official domain written inside an unofficial host, so the start
 * of the address reads right: `paypal.com-secure.net`, `paypal.com.evil.app`,
 * `www-paypal-com.evil.xyz`, `paypalcom-login.top`. Dots and hyphens are read alike. More of the
 * name must follow the embedded domain before the real public suffix: `go-live.com` does not
 * "contain" live.com, and `metamask-io.xyz` is the brand name in a name, not a disguised
 * address.
 */
export function embeddingFinding(view: HostView, index: ImpersonationIndex): Finding | null {
  // Words of the host in order, dots and hyphens both separating, up to the public suffix.
  const words: string[] = [];
  for (let i = 0; i <= view.registrableIndex; i++) {
    const label = view.labels[i] as string;
    // Cut at hyphens in place (most labels have none, and are their only word).
    for (let start = 0; start <= label.length; ) {
      let end = label.indexOf("-", start);
      if (end < 0) end = label.length;
      if (end > start) {
        const w = start === 0 && end === label.length ? label : label.slice(start, end);
        // "binance.com136347135.ml": a top-level domain glued to digits reads as the domain's end.
        const glued = endsWithDigit(w) ? SUFFIX_THEN_DIGITS.exec(w) : null;
        if (glued) words.push(glued[1] as string, glued[2] as string);
        else words.push(w);
      }
      start = end + 1;
    }
  }
  let hit: string | null = null;
  for (let i = 0; i + 1 < words.length && !hit; i++) {
    hit = index.embeddableGlued.get(words[i] as string) ?? null;
    // Only a word that names an embeddable domain can start one: most words need no candidates built.
    if (hit || !index.embeddableNames.has(words[i] as string)) continue;
    let candidate = words[i] as string;
    for (let n = 2; !hit && n <= MAX_EMBEDDED_LABELS && i + n < words.length; n++) {
      candidate += `.${words[i + n - 1] as string}`;
      if (index.embeddable.has(candidate)) hit = candidate;
    }
  }
  if (!hit) return null;
  const brand = index.embeddable.get(hit);
  if (!brand) return null;
  return finding(
    "domain.brand_embedding",
    "impersonation",
    `Shows ${hit} in the name, but the site is really ${view.registrable}`,
    { target: hit, brand: brand.id, technique: "target-embedding", registered_domain: view.registrable },
    index.source,
    1,
  );
}
