import argon2 from 'argon2';

/**
 * Password hashing, in one place. argon2id with OWASP's recommended parameters (19 MiB, 2 passes, 1 lane):
 * strong against GPU cracking, and about 20-40 ms a hash on one core, so sign-in stays quick for customers
 * and a burst of sign-ins cannot exhaust memory. The library's default (64 MiB, 3 passes, 4 lanes) costs
 * several times more per sign-in on our two-core instances for little extra protection. Verification reads
 * the parameters from the stored hash, so older hashes keep working if these change.
 */
const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, options);
}

/** False for a wrong password and for a malformed hash; never throws. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return argon2.verify(hash, password).catch(() => false);
}
