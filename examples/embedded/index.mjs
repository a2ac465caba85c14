import { createScreener } from "@svc/core";
const s = createScreener();
console.log(await s.screen("paypa1.com"));
