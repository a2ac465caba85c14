export { fixedClock, type TestClock } from "./clock.js";
export { entityOf } from "./builders.js";
