import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A bearer secret: 256 bits from the CSPRNG, URL-safe. */
export function randomToken(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** What we store for a bearer secret: tokens are 256-bit random, so a plain SHA-256 is enough. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Okta-style object ids: a type prefix and 17 random letters and digits (00u..., sms..., clf...). */
export function newId(prefix: string): string {
  let id = prefix;
  for (let i = 0; i < 17; i++) id += alphabet[randomInt(alphabet.length)];
  return id;
}

/** A one-time code of `length` digits from the CSPRNG (leading zeros kept). */
export function generateCode(length: 5 | 6): string {
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

/**
 * A code's stored form: keyed by a per-code salt and bound to the transaction, so a stored hash is useless
 * for any other transaction and a table of all codes cannot be precomputed.
 */
export function hashCode(code: string, salt: string, boundTo: string): string {
  return createHmac('sha256', salt).update(`${boundTo}:${code}`).digest('hex');
}

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
