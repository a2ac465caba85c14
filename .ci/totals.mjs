// Prints vitest's totals from its JSON report as the last line; fails when anything failed or nothing ran.
import { readFileSync } from "node:fs";

let r;
try {
  r = JSON.parse(readFileSync(process.argv[2], "utf8"));
} catch (e) {
  console.log(`0 passed, 0 failed (no report: ${e.message})`);
  process.exit(1);
}
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed`);
process.exit(r.success && r.numTotalTests > 0 && r.numFailedTests === 0 ? 0 : 1);
