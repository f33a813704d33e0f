/**
 * `npm run mfa:rekey`: after a new MFA_ENCRYPTION_KEY is set and the old one moved to
 * MFA_ENCRYPTION_KEYS_PREVIOUS (docs/operations.md, "Rotating the MFA key"), seals every authenticator-app
 * secret again under the new key, and says what still depends on an old one. Safe to run while the portal
 * serves (PostgreSQL) and to run again; on the embedded database, stop the portal first.
 */
import { loadCliConfig, openCliDb, refuse } from './platform/cli-db';
import { migrate } from './platform/db';
import { rekeyMfaSecrets } from './modules/identity/mfa/rekey';

async function main() {
  const config = loadCliConfig();
  const { db, stop } = await openCliDb(config, refuse);
  try {
    await migrate(db);
    const report = await rekeyMfaSecrets(db, {
      current: config.mfaEncryptionKey,
      previous: config.mfaPreviousKeys,
    });
    console.log(
      `Authenticator apps: ${report.resealed} sealed again under the current key, ${report.current} already were, ` +
        `${report.unreadable} opened by no configured key.`,
    );
    console.log(
      `Backup code sets on an earlier key: ${report.backupCodeSetsOnOldKeys} (they work while that key stays in ` +
        'MFA_ENCRYPTION_KEYS_PREVIOUS; codes are kept only as HMACs, so they cannot be re-keyed).',
    );
    if (report.unreadable > 0) process.exitCode = 1;
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
