// Run as a process of its own (`node create-database.js <dataDir>`): creates and migrates the
// embedded database of SVC_DATA_DIR `<dataDir>` (the same openStorage every process opens it
// with), closes it, exits 0. `createEmbeddedDatabaseApart` (storage.ts) starts it, so that what
// creating the database leaves behind in memory stays in this short-lived process (decision 0100).
import { openStorage } from "./storage.js";

try {
  const ds = await openStorage({ SVC_DATA_DIR: process.argv[2] as string });
  await ds.destroy();
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
