import argon2 from 'argon2';

/** OWASP's first argon2id configuration: 19 MiB of memory, 2 iterations, one lane. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

/**
 * Whether `password` is the one `hash` was made from. Without an account (`hash` undefined) a
 * hash of the same cost is checked all the same, so that an unknown e-mail takes as long to refuse
 * as a wrong password and the time of an answer says nothing about which it was.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  const matches = await argon2.verify(hash ?? (await decoyHash()), password);
  return hash !== undefined && matches;
}

let decoy: Promise<string> | undefined;
function decoyHash(): Promise<string> {
  return (decoy ??= argon2.hash('no account has this password', ARGON2_OPTIONS));
}
