import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from './common';
import type { NodeEnv } from './process';
import type { ModuleName } from './services';

/* Second factors: the keys that encrypt authenticator-app secrets at rest, and where passkeys may be used. */

export const mfaVariables = z.object({
  /**
   * The key that encrypts authenticator-app secrets at rest (AES-256-GCM): 32 bytes, base64. Required in
   * production; elsewhere a fixed development key.
   */
  MFA_ENCRYPTION_KEY: z.string().min(1).optional(),
  MFA_ENCRYPTION_KEYS_PREVIOUS: z.string().optional(),
  /**
   * Origins besides PUBLIC_URL's that may use passkeys (comma-separated, e.g. another host name of the
   * same site). The relying party id is always PUBLIC_URL's host name, so each must be on it or under it.
   */
  WEBAUTHN_EXTRA_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = (v ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const o of list) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(o);
        } catch {
          parsed = undefined;
        }
        if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== o.replace(/\/+$/, '')) {
          ctx.addIssue({ code: 'custom', message: `not an origin (scheme://host[:port]): ${o}` });
        }
      }
      return list.map((o) => o.replace(/\/+$/, ''));
    }),
});
type MfaValues = z.infer<typeof mfaVariables> & NodeEnv;

export interface MfaConfig {
  /** The AES-256-GCM key (32 bytes) that encrypts authenticator-app secrets at rest. */
  mfaEncryptionKey: Buffer;
  /** MFA_ENCRYPTION_KEYS_PREVIOUS: keys being rotated out; they still open what they sealed. */
  mfaPreviousKeys: Buffer[];
  /** Passkeys: the relying party id (PUBLIC_URL's host name) and the origins allowed to use them. */
  webauthn: { rpId: string; origins: string[] };
}

export function mfaConfig(e: MfaValues, modules: ReadonlySet<ModuleName>, publicUrl: string): MfaConfig {
  return {
    mfaEncryptionKey: parseMfaEncryptionKey(e, modules),
    mfaPreviousKeys: parsePreviousMfaKeys(e.MFA_ENCRYPTION_KEYS_PREVIOUS),
    webauthn: {
      rpId: new URL(publicUrl).hostname,
      origins: [...new Set([new URL(publicUrl).origin, ...e.WEBAUTHN_EXTRA_ORIGINS])],
    },
  };
}

/** Outside production only: a fixed key, so development and test data stay readable across restarts. */
const DEV_MFA_ENCRYPTION_KEY = createHash('sha256').update('portal-dev-mfa-encryption-key').digest();

/** MFA_ENCRYPTION_KEY: 32 bytes in base64, required in production by an instance serving identity. */
function parseMfaEncryptionKey(e: MfaValues, modules: ReadonlySet<ModuleName>): Buffer {
  if (!e.MFA_ENCRYPTION_KEY) {
    if (e.NODE_ENV === 'production' && modules.has('identity')) {
      throw new ConfigError(
        'Invalid configuration: MFA_ENCRYPTION_KEY: required in production (32 random bytes, base64)',
      );
    }
    return DEV_MFA_ENCRYPTION_KEY;
  }
  const key = mfaKeyBytes(e.MFA_ENCRYPTION_KEY);
  if (!key) throw new ConfigError('Invalid configuration: MFA_ENCRYPTION_KEY: expected 32 bytes in base64');
  return key;
}

const mfaKeyBytes = (text: string): Buffer | null => {
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  return key.length === 32 ? key : null;
};

/** MFA_ENCRYPTION_KEYS_PREVIOUS: comma-separated earlier keys, each 32 bytes in base64. */
function parsePreviousMfaKeys(value: string | undefined): Buffer[] {
  const texts = (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return texts.map((text) => {
    const key = mfaKeyBytes(text);
    if (!key) {
      throw new ConfigError(
        'Invalid configuration: MFA_ENCRYPTION_KEYS_PREVIOUS: expected 32-byte keys in base64, comma-separated',
      );
    }
    return key;
  });
}
