import type { MakeBotStores, TestApi } from "./fixture.js";
import { memberDirectoryContract } from "./member-directory-contract.js";
import { paymentLedgerContract } from "./payment-ledger-contract.js";
import { privacyContract } from "./privacy-contract.js";
import { settingsStoreContract } from "./settings-store-contract.js";
import { statsStoreContract } from "./stats-store-contract.js";
import { supportDeskContract } from "./support-desk-contract.js";

export { fresh, type BotStoreFixture, type BotStores, type MakeBotStores, type TestApi } from "./fixture.js";
export { fullSettings, settingsStoreContract } from "./settings-store-contract.js";
export { statsStoreContract } from "./stats-store-contract.js";
export { memberDirectoryContract } from "./member-directory-contract.js";
export { aPayment, extendingGrant, paymentLedgerContract } from "./payment-ledger-contract.js";
export { supportDeskContract } from "./support-desk-contract.js";
export { privacyContract } from "./privacy-contract.js";

/**
 * Every contract of the kernel's durable stores, for one implementation: the in-memory stores
 * run it in this package, the database adapters in @svc/persistence.
 *
 * ```ts
 * import { describe, expect, it } from "vitest";
 * botStoreContracts({ describe, it, expect }, "PGlite", async () => fixture);
 * ```
 */
export function botStoreContracts(t: TestApi, name: string, make: MakeBotStores): void {
  settingsStoreContract(t, name, make);
  statsStoreContract(t, name, make);
  memberDirectoryContract(t, name, make);
  paymentLedgerContract(t, name, make);
  supportDeskContract(t, name, make);
  privacyContract(t, name, make);
}
