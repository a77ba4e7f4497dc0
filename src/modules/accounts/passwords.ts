import { hash, verify } from '@node-rs/argon2';

/**
 * OWASP's first argon2id configuration: 19 MiB of memory, 2 iterations, one lane. The algorithm is
 * the library's default, argon2id (its `const enum` cannot be named from here); the stored hash
 * says `$argon2id$`, which a test checks.
 */
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * Whether `password` is the one `hashed` was made from. Without an account (`hashed` undefined) a
 * hash of the same cost is checked all the same, so that an unknown e-mail takes as long to refuse
 * as a wrong password and the time of an answer says nothing about which it was.
 */
export async function verifyPassword(hashed: string | undefined, password: string): Promise<boolean> {
  const matches = await verify(hashed ?? (await decoyHash()), password);
  return hashed !== undefined && matches;
}

let decoy: Promise<string> | undefined;
function decoyHash(): Promise<string> {
  return (decoy ??= hash('no account has this password', ARGON2_OPTIONS));
}
