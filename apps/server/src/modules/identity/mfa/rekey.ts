import type { Db } from '../../../platform/db';
import { keyId, openWithKeys, sealSecret, sealedWith, type MfaKeys } from './secret-box';

export interface RekeyReport {
  /** Authenticator-app secrets sealed again under the current key. */
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Opened by none of the configured keys: these apps cannot sign in until set up again. */
  unreadable: number;
  /**
   * Backup code sets with unused codes keyed by another key than the current one (or made before key ids
   * were kept): they keep working while their key is among MFA_ENCRYPTION_KEYS_PREVIOUS. Codes are
   * stored only as HMACs, so they cannot be re-keyed; the customer can create new ones.
   */
  backupCodeSetsOnOldKeys: number;
}

/**
 * After MFA_ENCRYPTION_KEY changes (the old key moved to MFA_ENCRYPTION_KEYS_PREVIOUS): seals every
 * authenticator-app secret again under the current key, each row in its own short transaction that
 * re-reads it (a sign-in re-sealing the same row at the same time leaves it sealed either way).
 */
export async function rekeyMfaSecrets(db: Db, keys: MfaKeys): Promise<RekeyReport> {
  const report: RekeyReport = { resealed: 0, current: 0, unreadable: 0, backupCodeSetsOnOldKeys: 0 };
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM identity_authenticator WHERE kind = 'totp' AND secret_encrypted IS NOT NULL ORDER BY id`,
  );
  for (const { id } of rows) {
    await db.transaction(async (q) => {
      const row = (
        await q.query<{ sealed: string | null }>(
          'SELECT secret_encrypted AS sealed FROM identity_authenticator WHERE id = $1 FOR UPDATE',
          [id],
        )
      ).rows[0];
      if (!row?.sealed) return;
      if (sealedWith(keys.current, row.sealed)) {
        report.current += 1;
        return;
      }
      let secret: Buffer;
      try {
        secret = openWithKeys(keys, row.sealed, id).secret;
      } catch {
        report.unreadable += 1;
        return;
      }
      await q.query('UPDATE identity_authenticator SET secret_encrypted = $2 WHERE id = $1', [
        id,
        sealSecret(keys.current, secret, id),
      ]);
      report.resealed += 1;
    });
  }
  const sets = await db.query<{ n: number | string }>(
    `SELECT count(DISTINCT factor_id) AS n FROM identity_backup_code
      WHERE used_at IS NULL AND (key_id IS NULL OR key_id <> $1)`,
    [keyId(keys.current)],
  );
  report.backupCodeSetsOnOldKeys = Number(sets.rows[0]?.n ?? 0);
  return report;
}
