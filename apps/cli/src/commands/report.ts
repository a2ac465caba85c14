import { Option, type Command } from "commander";
import { write } from "../io.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, examples, typeOption, type Context } from "./shared.js";

const CATEGORIES = ["phishing", "scam", "impersonation", "malware", "spam", "fraud", "drainer", "other"] as const;

interface ReportOptions extends AccessFlags {
  readonly category: (typeof CATEGORIES)[number];
  readonly type?: "domain" | "url" | "wallet" | "email" | "ip_address" | "phone" | "social_account";
  readonly description?: string;
  readonly evidence?: string[];
  readonly related?: string[];
  readonly checkId?: string;
  readonly feedback?: "false_positive" | "false_negative";
  readonly json?: boolean;
}

export function reportCommand(program: Command, ctx: Context): void {
  const cmd = program
    .command("report")
    .summary("report an entity (phishing, scam, …) or dispute a verdict")
    .description("File a community report about an entity. It counts in verdicts once the operator confirms it (or at once, if your earlier reports earned trust by being confirmed), and its weight decays with age. With --feedback and --check-id, dispute a verdict (false positive or false negative).")
    .argument("<entity>", "the entity being reported")
    .addOption(new Option("--category <category>", "what it is").choices([...CATEGORIES]).makeOptionMandatory())
    .addOption(typeOption())
    .option("--description <text>", "what happened (≤ 2,000 characters)")
    .option("--evidence <url...>", "links to evidence (screenshots, posts), up to 10")
    .option("--related <entity...>", "entities seen together with it (wallets, domains), up to 20")
    .option("--check-id <id>", "the check this report is about (chk_…)")
    .addOption(new Option("--feedback <kind>", "dispute a verdict").choices(["false_positive", "false_negative"]))
    .option("--json", "print the server's answer as JSON");
  addDataDirOption(addRemoteOptions(cmd))
    .addHelpText(
      "after",
      examples(
        'svc report paypa1.com --category phishing --description "SMS with a fake PayPal login"',
        "svc report 0xabc…def --category drainer --related approve-airdrop.xyz",
        "svc report mybank.com --category other --feedback false_positive --check-id chk_01…",
      ),
    )
    .action(async (entity: string, o: ReportOptions) => {
      await withApi(ctx.io, o, async (client, where) => {
        const r = await client.report({
          entity_value: entity,
          category: o.category,
          ...(o.type ? { type: o.type } : {}),
          ...(o.description !== undefined ? { description: o.description } : {}),
          ...(o.evidence ? { evidence_urls: o.evidence } : {}),
          ...(o.related ? { related_entities: o.related } : {}),
          ...(o.checkId ? { check_id: o.checkId } : {}),
          ...(o.feedback ? { feedback: o.feedback } : {}),
        });
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify(r, null, 2)}\n`));
        await write(ctx.io.stdout, `Report ${r.id} received for ${r.entity.id} (moderation: ${r.moderation_status}; ${where}).\nIt counts in verdicts once the operator confirms it; thank you.\n`);
      });
    });
}
