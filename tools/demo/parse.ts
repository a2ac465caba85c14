// Until the service lands, `npm start` parses what it is given and prints the canonical entities.
import { extractEntities, parseEntity } from "@svc/core";

const args = process.argv.slice(2);
const inputs = args.length > 0 ? args : ["https://PAYPA1.com:443/login", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "x:@Binance_Support", "+44 20 7946 0958", "münchen.de"];
for (const input of inputs) {
  const r = parseEntity(input);
  console.log(JSON.stringify(r.ok ? r.entity : r.error));
}
if (args.length === 0) {
  const text = "Claim now: hxxps://metamask-io[.]claim-airdrop.xyz or [paypal.com](https://paypa1.com/login), mail help@binance-support.top";
  console.log(JSON.stringify(extractEntities(text), null, 1));
}
