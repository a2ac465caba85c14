/**
 * Slack delivers message text in its own markup: links as `<url|label>` or `<url>`, mentions as
 * `<@U123>`, channels as `<#C123|name>`, and `&amp; &lt; &gt;` escaped. The kernel reads plain
 * text and Markdown links, so links become `[label](url)`: a label that shows one site while the
 * link opens another is then caught like anywhere else. Read by hand, bounded, no backtracking.
 */
const MAX_TEXT = 40_000;

export function scanText(raw: string): string {
  const s = raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw;
  let out = "";
  let i = 0;
  while (i < s.length) {
    const open = s.indexOf("<", i);
    if (open < 0) {
      out += s.slice(i);
      break;
    }
    const close = s.indexOf(">", open + 1);
    if (close < 0) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, open);
    out += token(s.slice(open + 1, close));
    i = close + 1;
  }
  return out.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

function token(inner: string): string {
  const bar = inner.indexOf("|");
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? "" : inner.slice(bar + 1);
  if (target.startsWith("@") || target.startsWith("!")) return label ? `@${label}` : "";
  if (target.startsWith("#")) return label ? `#${label}` : "";
  if (target.startsWith("mailto:")) return ` ${target.slice(7)} `;
  if (target.startsWith("tel:")) return ` ${target.slice(4)} `;
  if (label && label !== target) return ` [${label}](${target}) `;
  return ` ${target} `;
}
