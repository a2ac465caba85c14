import { hostOf } from "../../entities/host.js";
import type { Entity } from "../../entities/types.js";

/** A host name cut into the pieces the impersonation checks look at. */
export interface HostView {
  /** ASCII (punycode) host. */
  readonly host: string;
  readonly labels: readonly string[];
  /** The same labels as displayed (Unicode); equal to `labels` for ASCII names. */
  readonly unicodeLabels: readonly string[];
  /** Position of the registrable label ("paypal" in www.paypal.co.uk). */
  readonly registrableIndex: number;
  /** Registrable domain ("paypal.co.uk"). */
  readonly registrable: string;
  /** Registrable label, ASCII ("paypal"). */
  readonly label: string;
  /** Public suffix ("co.uk"). */
  readonly suffix: string;
  /** The suffix is a hosting platform where anyone gets a name (github.io, pages.dev). */
  readonly privateSuffix: boolean;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/**
 * `s.split(".")`, in a loop: a host has two or three labels, and the built-in split's call into
 * the runtime costs more than cutting them out here (two to three times as long, measured).
 */
export function splitAtDots(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let dot = s.indexOf("."); dot >= 0; dot = s.indexOf(".", start)) {
    out.push(s.slice(start, dot));
    start = dot + 1;
  }
  out.push(s.slice(start));
  return out;
}

/** The host of a domain, URL or e-mail entity, as a `HostView`; null for anything else. */
export function hostView(entity: Entity): HostView | null {
  const host = hostOf(entity);
  if (!host) return null;
  const a = entity.attributes;
  const suffix = str(a.public_suffix);
  const registrable = str(a.registered_domain);
  if (!suffix || !registrable) return null;
  const labels = splitAtDots(host);
  const unicode = str(a.unicode);
  const unicodeLabels = unicode && unicode !== host ? unicode.split(".") : labels;
  let suffixLabels = 1;
  for (let i = suffix.indexOf("."); i >= 0; i = suffix.indexOf(".", i + 1)) suffixLabels++;
  const registrableIndex = labels.length - suffixLabels - 1;
  if (registrableIndex < 0 || unicodeLabels.length !== labels.length) return null;
  return {
    host,
    labels,
    unicodeLabels,
    registrableIndex,
    registrable,
    label: labels[registrableIndex] as string,
    suffix,
    privateSuffix: a.private_suffix === true,
  };
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

function hasDigit(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isDigit(s.charCodeAt(i))) return true;
  return false;
}

/** Pushes `part` and, when it contains digits, each run of non-digits in it ("office365x" → "office", "x"). */
function pushPart(part: string, out: string[]): void {
  out.push(part);
  if (!hasDigit(part)) return;
  let run = 0;
  for (let i = 0; i <= part.length; i++) {
    if (i < part.length && !isDigit(part.charCodeAt(i))) continue;
    if (i > run) out.push(part.slice(run, i));
    run = i + 1;
  }
}

let lastLabel = "";
let lastParts: readonly string[] = [];

/** Parts of a label that a reader sees as words: split at hyphens, and at digits too ("paypal2024"). */
export function labelParts(label: string): readonly string[] {
  // A check asks for the parts of the same label several times in a row.
  if (label === lastLabel) return lastParts;
  const out: string[] = [];
  // Tokens such as "1inch" and "office365" contain digits, so the undivided part is kept as well.
  let start = 0;
  for (let i = 0; i <= label.length; i++) {
    if (i < label.length && label.charCodeAt(i) !== 0x2d) continue;
    if (i > start) pushPart(label.slice(start, i), out);
    start = i + 1;
  }
  lastLabel = label;
  lastParts = out;
  return out;
}

/**
 * True when the host or any parent domain is an official domain of any brand. A parent that is
 * also user content (tumblr.com: the company's own site, and its users' `name.tumblr.com`)
 * vouches only for itself, not for the names under it.
 */
export function isOfficialHost(view: HostView, official: { has(domain: string): boolean }, userContent: { has(domain: string): boolean } = { has: () => false }): boolean {
  let h = view.host;
  for (;;) {
    if (official.has(h)) return h === view.host || !userContent.has(h);
    const dot = h.indexOf(".");
    if (dot < 0 || h.indexOf(".", dot + 1) < 0) return false;
    h = h.slice(dot + 1);
  }
}
