/**
 * @node-rs/argon2 (a native addon, about 4 MB resident) is loaded on the first password hashed or
 * verified: a process whose users never sign in with a password never loads it (docs/decisions/0091).
 */
let argon2: Promise<typeof import("@node-rs/argon2")> | null = null;
const loadArgon2 = (): Promise<typeof import("@node-rs/argon2")> => (argon2 ??= import("@node-rs/argon2"));

/** `Algorithm.Argon2id` of @node-rs/argon2 (an ambient const enum, so spelled out here). */
const ARGON2ID = 2;

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first configuration: 19 MiB of memory,
 * two passes, one lane. The parameters travel inside the PHC string, so raising them later still
 * verifies older hashes.
 */
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

export const hashPassword = async (password: string): Promise<string> => (await loadArgon2()).hash(password, ARGON2_OPTIONS);

/** A hash made once at start-up, verified against when the e-mail is unknown, so both cases take as long. */
let decoy: Promise<string> | null = null;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  if (!stored) {
    decoy ??= hashPassword("not a password of anyone");
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** A polite reason the password is not acceptable, or null. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  if (password.toLowerCase() === email.toLowerCase()) return "The password must not be your e-mail address.";
  return null;
}
