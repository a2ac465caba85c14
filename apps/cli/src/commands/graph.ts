import { Option, type Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { renderTree } from "../render/tree.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, ENTITY_TYPES, examples, parsePositiveInt, stdoutPaint, typeOption, type Context } from "./shared.js";

interface GraphOptions extends AccessFlags {
  readonly depth: number;
  readonly maxNodes: number;
  readonly relation?: string;
  readonly type?: string;
  readonly json?: boolean;
}

/** `type:value` (an entity id) or a raw value whose type is recognised. */
async function resolveEntity(input: string, type: string | undefined): Promise<{ type: string; value: string }> {
  const colon = input.indexOf(":");
  const prefix = colon > 0 ? input.slice(0, colon) : "";
  if (type === undefined && (ENTITY_TYPES as readonly string[]).includes(prefix)) return { type: prefix, value: input.slice(colon + 1) };
  const { parseEntity } = await import("@svc/core");
  const p = parseEntity(input, type ? { type } : {});
  if (!p.ok) throw new CliError(`Cannot read ${JSON.stringify(input)} as an entity: ${p.error.message}`, EXIT.usage, "Give --type, or an entity id such as domain:example.com.");
  return { type: p.entity.type, value: p.entity.value };
}

export function graphCommand(program: Command, ctx: Context): void {
  const cmd = program
    .command("graph")
    .summary("show what an entity is linked to, as a tree")
    .description("Walk the entity graph from an entity, breadth first (cycles cut), and print it as a tree with each node's risk and each link's relation and source.")
    .argument("<entity>", "an entity (paypa1.com) or entity id (domain:paypa1.com)")
    .addOption(typeOption())
    .addOption(new Option("--depth <n>", "hops from the entity (1–4)").default(2).argParser(parsePositiveInt("--depth", 4)))
    .addOption(new Option("--max-nodes <n>", "stop after this many nodes (1–500)").default(100).argParser(parsePositiveInt("--max-nodes", 500)))
    .option("--relation <relation>", "only follow this relation (hosted_on, subdomain_of, reported_with, …)")
    .option("--json", "print the graph as the API returns it");
  addDataDirOption(addRemoteOptions(cmd))
    .addHelpText("after", examples("svc graph paypa1.com", "svc graph wallet:0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae --depth 3", "svc graph login.paypa1.com --relation subdomain_of --json"))
    .action(async (entity: string, o: GraphOptions) => {
      const e = await resolveEntity(entity, o.type);
      await withApi(ctx.io, o, async (client, where) => {
        const g = await client.graph(e.type, e.value, { depth: o.depth, max_nodes: o.maxNodes, ...(o.relation ? { relation: o.relation } : {}) });
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify(g, null, 2)}\n`));
        await write(ctx.io.stdout, renderTree(g, stdoutPaint(ctx.io)));
        if (g.edges.length === 0) ctx.io.stderr.write(`No links known for ${g.root} yet (${where}). Links come from checks (url → domain, sub-domain → domain) and reports (--related).\n`);
      });
    });
}
