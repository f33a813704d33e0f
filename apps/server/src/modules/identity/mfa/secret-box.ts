import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/*
 * Authenticator-app secrets at rest: AES-256-GCM with MFA_ENCRYPTION_KEY, a fresh 96-bit IV each time, the
 * row's id as additional data (a ciphertext copied onto another row does not decrypt). Stored as
 * `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */

export function sealSecret(key: Buffer, plaintext: Buffer, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The secret sealed by sealSecret; throws when the key, the row or the text is not the one sealed. */
export function openSecret(key: Buffer, sealed: string, boundTo: string): Buffer {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}
