import type { Graph } from "@svc/sdk";
import type { Paint } from "../io.js";

const LEVEL: Readonly<Record<string, Parameters<Paint>[0]>> = { critical: ["bold", "red"], high: "red", medium: "yellow", low: "green" };

/**
 * A graph walk as a tree from its root. Edges are walked in both directions (as the API does);
 * the arrow shows the direction observed. A node reached again is marked instead of repeated,
 * so cycles print once.
 */
export function renderTree(g: Graph, paint: Paint): string {
  const nodes = new Map(g.nodes.map((n) => [n.id, n]));
  type Link = { other: string; relation: string; out: boolean; source: string; key: string };
  const adj = new Map<string, Link[]>();
  const link = (a: string, l: Link): void => {
    const list = adj.get(a) ?? [];
    list.push(l);
    adj.set(a, list);
  };
  g.edges.forEach((e, i) => {
    const key = String(i);
    link(e.from, { other: e.to, relation: e.relation, out: true, source: e.source, key });
    link(e.to, { other: e.from, relation: e.relation, out: false, source: e.source, key });
  });
  const label = (id: string): string => {
    const n = nodes.get(id);
    const risk = n && n.risk_level ? paint(LEVEL[n.risk_level] ?? "white", ` ${n.risk_score ?? "?"} ${n.risk_level}`) : paint("gray", " not screened");
    return `${id}${risk}`;
  };
  // Breadth-first parents, so each node hangs under the hop that reached it first.
  const children = new Map<string, { id: string; relation: string; out: boolean; source: string }[]>();
  const seen = new Set([g.root]);
  const queue = [g.root];
  const used = new Set<string>();
  const seeAlso = new Map<string, string[]>();
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const e of [...(adj.get(id) ?? [])].sort((a, b) => a.other.localeCompare(b.other))) {
      if (used.has(e.key)) continue;
      used.add(e.key);
      if (seen.has(e.other)) {
        // A link between two nodes already in the tree (a cycle): listed, not walked again.
        seeAlso.set(id, [...(seeAlso.get(id) ?? []), `${e.out ? `${e.relation} →` : `← ${e.relation}`} ${e.other}`]);
        continue;
      }
      seen.add(e.other);
      queue.push(e.other);
      children.set(id, [...(children.get(id) ?? []), { id: e.other, relation: e.relation, out: e.out, source: e.source }]);
    }
  }
  const lines = [paint("bold", label(g.root))];
  const walk = (id: string, prefix: string): void => {
    const kids = children.get(id) ?? [];
    const also = seeAlso.get(id) ?? [];
    kids.forEach((k, i) => {
      const last = i === kids.length - 1 && also.length === 0;
      const rel = k.out ? `${k.relation} →` : `← ${k.relation}`;
      lines.push(`${prefix}${last ? "└─" : "├─"} ${paint("cyan", rel)} ${label(k.id)} ${paint("gray", `[${k.source}]`)}`);
      walk(k.id, `${prefix}${last ? "   " : "│  "}`);
    });
    also.forEach((a, i) => lines.push(`${prefix}${i === also.length - 1 ? "└─" : "├─"} ${paint("gray", `${a} (shown above)`)}`));
  };
  walk(g.root, "");
  if (g.truncated) lines.push(paint("yellow", "… truncated: raise --max-nodes or lower --depth to see the rest"));
  return `${lines.join("\n")}\n`;
}
