import { createHmac, randomInt } from 'node:crypto';
import type { MfaKeys } from './secret-box';

/** Letters and digits no one confuses when reading or typing them (no 0/O, 1/I/L, 5/S, 2/Z, 8/B). */
const ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';
const COUNT = 10;

/** Ten new codes, `xxxx-xxxx` (8 characters of 25: about 37 bits each). */
export function newBackupCodes(): string[] {
  const one = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const codes = new Set<string>();
  while (codes.size < COUNT) codes.add(one());
  return [...codes].map((c) => `${c.slice(0, 4)}-${c.slice(4)}`);
}

/** What a customer typed, as stored: upper case, without spaces or dashes; null when it cannot be one. */
export function normaliseBackupCode(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '');
  return /^[A-Z0-9]{8}$/.test(plain) ? plain : null;
}

/**
 * A code's stored form: HMAC-SHA256 keyed with the server's MFA key and bound to the factor. 37 bits is
 * too little for a plain hash (the table alone would give them up by brute force); with the key kept out
 * of the database, the table alone gives nothing. Fast, so checking ten needs no argon2.
 */
export const hashBackupCode = (key: Buffer, factorId: string, normalised: string): string =>
  createHmac('sha256', key).update(`backup:${factorId}:${normalised}`).digest('hex');

/** The code's stored form under each configured key, the current one first (a set made before a key
 * rotation keeps working while its key is among MFA_ENCRYPTION_KEYS_PREVIOUS). */
export const backupCodeHashes = (keys: MfaKeys, factorId: string, normalised: string): string[] =>
  [keys.current, ...keys.previous].map((key) => hashBackupCode(key, factorId, normalised));
