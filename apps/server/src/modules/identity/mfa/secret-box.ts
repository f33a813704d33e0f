import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * Authenticator-app secrets at rest: AES-256-GCM with MFA_ENCRYPTION_KEY, a fresh 96-bit IV each time, the
 * row's id as additional data (a ciphertext copied onto another row does not decrypt). Stored as
 * `v2.<key id>.<iv>.<tag>.<ciphertext>`, each base64url; `v1.<iv>.<tag>.<ciphertext>` (no key id), as the
 * first release wrote, still opens. The key id names the key without revealing it, so a rotation
 * (MFA_ENCRYPTION_KEYS_PREVIOUS) knows which key opens a row and which rows still need re-sealing.
 */

/** The key that seals, and the earlier ones that still open (key rotation, docs/operations.md). */
export interface MfaKeys {
  current: Buffer;
  previous: readonly Buffer[];
}

/** A short public name for a key: the first 8 characters of its SHA-256 in base64url. */
export const keyId = (key: Buffer): string =>
  createHash('sha256').update(key).digest('base64url').slice(0, 8);

export function sealSecret(key: Buffer, plaintext: Buffer, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ['v2', keyId(key), ...[iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url'))].join('.');
}

function parse(sealed: string): { kid: string | null; iv: string; tag: string; body: string } {
  const parts = sealed.split('.');
  if (parts[0] === 'v2' && parts.length === 5) {
    const [, kid, iv, tag, body] = parts as [string, string, string, string, string];
    return { kid, iv, tag, body };
  }
  if (parts[0] === 'v1' && parts.length === 4) {
    const [, iv, tag, body] = parts as [string, string, string, string];
    return { kid: null, iv, tag, body };
  }
  throw new Error('Unreadable sealed secret');
}

function open(key: Buffer, { iv, tag, body }: ReturnType<typeof parse>, boundTo: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}

/** The secret sealed by sealSecret; throws when the key, the row or the text is not the one sealed. */
export function openSecret(key: Buffer, sealed: string, boundTo: string): Buffer {
  return open(key, parse(sealed), boundTo);
}

/**
 * Opens with whichever of the keys sealed it: `stale` when that was not the current key, so the caller
 * re-seals it with the current one. Throws when none of the keys opens it.
 */
export function openWithKeys(
  keys: MfaKeys,
  sealed: string,
  boundTo: string,
): { secret: Buffer; stale: boolean } {
  const parts = parse(sealed);
  const all = [keys.current, ...keys.previous];
  const candidates = parts.kid === null ? all : all.filter((k) => keyId(k) === parts.kid);
  for (const key of candidates) {
    try {
      return { secret: open(key, parts, boundTo), stale: key !== keys.current || parts.kid === null };
    } catch {
      // GCM refused it: not this key (v1 rows name no key, so each is tried).
    }
  }
  throw new Error('No configured MFA key opens this secret');
}

/** Whether a sealed secret is already under the current key (v2 naming it). */
export const sealedWith = (key: Buffer, sealed: string): boolean => sealed.startsWith(`v2.${keyId(key)}.`);
