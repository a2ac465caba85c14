/** The repository root. */
export const ROOT: string;
/** Every workspace directory with sources to build (absolute paths). */
export function workspaces(root?: string): string[];
/** Builds every workspace that changed; resolves to the number built. */
export function build(options?: { force?: boolean; quiet?: boolean; verbose?: boolean }): Promise<number>;
