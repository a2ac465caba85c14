import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";

/**
 * TypeORM's driver factory `require`s the drivers of all seventeen databases it supports when it
 * is loaded, and with them their query runners and schema builders: about 1.5 MB of source text
 * and 2 MB of an idle API's heap for databases svc never opens (decision 0105). svc speaks only
 * PostgreSQL (PGlite through the same driver). So, before TypeORM is first loaded, each other
 * driver's module is put in Node's module cache (`require.cache`, where "adding or replacing
 * entries is also possible") as a class that refuses to be made, and the factory takes that
 * instead of reading the file. Nothing else in TypeORM requires these modules.
 *
 * Imported for its effect, first, by data-source.ts. If TypeORM was loaded already (another
 * import order, a test), or a later version moves its files, nothing changes but the memory.
 */
const OTHER_DRIVERS: readonly (readonly [folder: string, name: string])[] = [
  ["aurora-mysql", "AuroraMysqlDriver"],
  ["better-sqlite3", "BetterSqlite3Driver"],
  ["capacitor", "CapacitorDriver"],
  ["cockroachdb", "CockroachDriver"],
  ["cordova", "CordovaDriver"],
  ["expo", "ExpoDriver"],
  ["mongodb", "MongoDriver"],
  ["mysql", "MysqlDriver"],
  ["nativescript", "NativescriptDriver"],
  ["oracle", "OracleDriver"],
  ["react-native", "ReactNativeDriver"],
  ["sap", "SapDriver"],
  ["spanner", "SpannerDriver"],
  ["sqljs", "SqljsDriver"],
  ["sqlserver", "SqlServerDriver"],
];

/** The files that were given a refusing class instead of being read (for the test). */
export const driversLeftOut: readonly string[] = leaveOutOtherDrivers();

function leaveOutOtherDrivers(): string[] {
  const require = createRequire(import.meta.url);
  let factory: string;
  try {
    factory = require.resolve("typeorm/driver/DriverFactory.js");
  } catch {
    return [];
  }
  // TypeORM loaded already: its factory holds the real drivers.
  if (require.cache[factory]) return [];
  const left: string[] = [];
  for (const [folder, name] of OTHER_DRIVERS) {
    const file = join(dirname(factory), folder, `${name}.js`);
    if (require.cache[file]) continue;
    const stub = new Module(file);
    stub.filename = file;
    stub.loaded = true;
    stub.exports = {
      [name]: class {
        constructor() {
          throw new Error(`svc opens PostgreSQL only; TypeORM's ${folder} driver is not loaded`);
        }
      },
    };
    require.cache[file] = stub;
    left.push(file);
  }
  return left;
}
