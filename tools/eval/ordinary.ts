// How the screening engine scores ordinary names it never saw: two or three common English words on
// common TLDs, generated like the training's ordinary names but after them and after the valid
// months' ones (unseen by training and choosing), plus a few hand-written small-business names. Reports the share at `medium` (≥ 30) and `high` (≥ 65).
//   npx tsx tools/eval/ordinary.ts [n]
// Nothing is chosen on this: it is a check that ordinary names stay low.
import { createScreener } from "@svc/core";
import { lureWords, ORDINARY_NAMES, ORDINARY_TLDS, ORDINARY_VALID_NAMES, ordinaryNames, ordinaryWords } from "../train/names.js";

const n = Number(process.argv[2] ?? 2000);
const EXAMPLES = ["elm-street-bakery.com", "northgate-plumbing.com", "riverside-choir.net", "quietmeadowbakery.com", "oakfield-dental.co.uk", "hillside-garden-centre.com", "bluebird-books.org", "mapletree-physio.com"];
const screener = createScreener({ clock: { now: () => new Date("2026-01-01T00:00:00Z") }, ids: { next: (p: string) => `${p}_ordinary` } });
// After the names trained on and the valid months' ones (which chose their weight).
const seen = ORDINARY_NAMES + ORDINARY_VALID_NAMES;
const unseen = ordinaryNames(seen + n, ordinaryWords(lureWords()), ORDINARY_TLDS).slice(seen);
const scores: number[] = [];
for (const d of unseen) {
  const r = await screener.screen(d, { type: "domain" });
  if (r.ok) scores.push(r.verdict.risk_score);
}
scores.sort((a, b) => a - b);
const share = (t: number): string => `${((100 * scores.filter((s) => s >= t).length) / scores.length).toFixed(1)} %`;
const q = (p: number): number => scores[Math.min(scores.length - 1, Math.floor(p * scores.length))] as number;
console.log(`${scores.length} unseen ordinary names: median ${q(0.5)}, 90th percentile ${q(0.9)}, max ${q(1)}; at ≥ 30 ${share(30)}, at ≥ 65 ${share(65)}`);
for (const d of EXAMPLES) {
  const r = await screener.screen(d);
  if (r.ok) console.log(`  ${d.padEnd(28)} ${String(r.verdict.risk_score).padStart(3)} ${r.verdict.risk_level}`);
}

// The same names as users' sites on the hosting platforms scams use most (information: nothing is
// trained or chosen on these; decision 0107 says why the model reads them as it does).
const HOSTED = ["github.io", "vercel.app", "netlify.app", "web.app", "pages.dev"];
const labels = unseen.slice(0, 500).map((d) => d.slice(0, d.indexOf(".")));
console.log(`the first ${labels.length} of them as users' sites on hosting platforms (label.platform):`);
for (const platform of HOSTED) {
  const hosted: number[] = [];
  for (const label of labels) {
    const r = await screener.screen(`${label}.${platform}`, { type: "domain" });
    if (r.ok) hosted.push(r.verdict.risk_score);
  }
  hosted.sort((a, b) => a - b);
  const at = (t: number): string => `${((100 * hosted.filter((s) => s >= t).length) / hosted.length).toFixed(1)} %`;
  console.log(`  ${platform.padEnd(12)} median ${hosted[Math.floor(hosted.length / 2)]}, at ≥ 30 ${at(30)}, at ≥ 65 ${at(65)}, at ≥ 85 ${at(85)}`);
}
