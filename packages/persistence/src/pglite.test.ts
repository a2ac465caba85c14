import { afterAll, beforeAll } from "vitest";
import type { DataSource } from "typeorm";
import { typeOrmBotContracts } from "./bot-contract-suites.js";
import { typeOrmContracts } from "./contract-suites.js";
import { openDataSource } from "./data-source.js";

// One in-memory PGlite for the whole file: starting one costs seconds of CPU (it runs initdb).
let ds: DataSource;
beforeAll(async () => {
  ds = await openDataSource();
}, 120_000);
afterAll(async () => {
  await ds?.destroy();
});

typeOrmContracts("PGlite", () => ds);
typeOrmBotContracts("PGlite", () => ds);
