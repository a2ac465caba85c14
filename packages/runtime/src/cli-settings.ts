// `@svc/runtime/cli-settings`: the settings `svc` reads before it knows what it will run. Only the
// loader and zod, so `svc --help`, `svc --version` and the commands that talk to a remote server do
// not load storage, screening and the server (they are imported when a command needs them).
export { cliSettings, type CliSettings } from "./config/cli.js";
export { environment } from "./config/load.js";
