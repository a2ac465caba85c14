import type { Command } from "commander";
import { CliError, EXIT } from "../exit.js";
import { write } from "../io.js";
import { addDataDirOption, withApi, type AccessFlags } from "./api-access.js";
import { addRemoteOptions, examples, type Context } from "./shared.js";

interface RefundOptions extends AccessFlags {
  readonly entitlement?: string;
  readonly json?: boolean;
}

/** `svc billing refund`: the operator's refund of a Stripe purchase (POST /v1/billing/refunds). */
export function billingCommand(program: Command, ctx: Context): void {
  const billing = program
    .command("billing")
    .summary("billing: refund a purchase (operator)")
    .description("Billing operations of the operator. Plans are bought and managed by customers through Stripe Checkout and the Billing Portal (POST /v1/billing/checkout, /v1/billing/portal).");

  addDataDirOption(addRemoteOptions(
    billing
      .command("refund")
      .description("Refund an account's Stripe purchase in full (the latest one unless --entitlement), end its subscription at once and put it on the free plan.")
      .argument("<account_id>", "the account (acc_…)")
      .option("--entitlement <id>", "the purchase to refund (ent_…), as GET /v1/billing lists it")
      .option("--json", "print the result as JSON"),
  ))
    .addHelpText("after", examples("svc billing refund acc_…", "svc billing refund acc_… --entitlement ent_… --url https://svc.example --key $OPERATOR_KEY"))
    .action(async (accountId: string, o: RefundOptions) => {
      await withApi(ctx.io, o, async (client) => {
        let r;
        try {
          r = await client.refundPurchase({ account_id: accountId, ...(o.entitlement ? { entitlement_id: o.entitlement } : {}) });
        } catch (e) {
          const { SvcApiError } = await import("@svc/sdk");
          if (e instanceof SvcApiError && e.code === "auth.operator_only") throw new CliError("Only the operator may refund, and this API key is a customer's.", EXIT.unavailable, "Use the operator's key (--key / SVC_API_KEY), or run it on the server's machine without --url.");
          if (e instanceof SvcApiError && e.code === "billing.not_configured") throw new CliError("This server sells no plans: Stripe is not configured.", EXIT.unavailable, "Set SVC_STRIPE_SECRET_KEY, SVC_STRIPE_WEBHOOK_SECRET and the price ids (docs/api.md, Billing).");
          if (e instanceof SvcApiError && e.status < 500) throw new CliError(`The server refused: ${e.problem.detail} (${e.code})`, EXIT.usage);
          throw e;
        }
        if (o.json) return void (await write(ctx.io.stdout, `${JSON.stringify(r, null, 2)}\n`));
        const e = r.entitlement;
        await write(ctx.io.stdout, `Refunded ${e.id} (${e.plan}, ${(e.amount / 100).toFixed(2)} ${e.currency.toUpperCase()}, invoice ${e.purchase_ref}). Account ${accountId} is now on the ${r.plan} plan.\n`);
      });
    });
}
