import type { Verdict } from "@svc/core";
import { code, heading, list, note, text, type Block, type Reply } from "./reply.js";

/**
 * Risky links are written so they cannot be tapped by accident and are not previewed:
 * `https://evil.top` → `hxxps://evil[.]top`. Safe to show, still readable, and the same
 * defanged form our extractor reads back if someone pastes it into /check.
 */
export function defang(value: string): string {
  return value.replace(/^http/iu, "hxxp").replaceAll(".", "[.]");
}

const LEVEL_MARK: Readonly<Record<Verdict["risk_level"], string>> = { low: "🟢", medium: "🟡", high: "🟠", critical: "🔴" };
const ACTION_WORDS: Readonly<Record<Verdict["recommended_action"], string>> = {
  allow: "no known risk indicators",
  review: "be careful: review before trusting it",
  block: "do not trust it",
};

export function verdictBlocks(v: Verdict, shown: string): Block[] {
  const blocks: Block[] = [
    heading(`${LEVEL_MARK[v.risk_level]} ${v.risk_level.toUpperCase()} risk (${v.risk_score}/100)`),
    code(defang(shown)),
    text(`${v.entity.type.replace("_", " ")} · ${ACTION_WORDS[v.recommended_action]} · confidence ${v.confidence}`),
  ];
  const signals = [...v.signals].filter((s) => s.points > 0 || s.severity !== "info").sort((a, b) => b.points - a.points).slice(0, 4);
  if (signals.length > 0) blocks.push(list(signals.map((s) => s.message)));
  else if (v.confidence === "low") blocks.push(text("Nothing is known about it yet. That is not proof it is safe."));
  return blocks;
}

export function verdictReply(v: Verdict, shown: string): Reply {
  return { blocks: [...verdictBlocks(v, shown), note(v.disclaimer)] };
}
