/** Copies the deployment layout into `out`; resolves to the workspace directories copied, relative to the root. */
export function layOut(out: string): Promise<string[]>;
