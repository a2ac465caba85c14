/** The package a bare specifier names, or null for relative and built-in ones. */
export function packageOf(spec: string): string | null;
/** The module references of one source file. */
export function referencesOf(fileName: string, text: string): { spec: string; runtime: boolean }[];
/** Workspaces that nothing runs (only tests load them). */
export function devOnlyWorkspaces(dirs: readonly string[]): Set<string>;
/** The bare packages a workspace imports at run time: name → one file that imports it. */
export function runtimeImports(dir: string): Map<string, string>;
export function checkWorkspace(dir: string, rootDevDeps: ReadonlySet<string>, devOnly?: boolean): string[];
export function checkAll(root?: string): string[];
