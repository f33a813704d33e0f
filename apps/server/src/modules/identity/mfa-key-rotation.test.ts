import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, databases } from '../../../test/helpers';
import { ManualClock } from '../../platform/clock';
import type { Db } from '../../platform/db';
import { keyId } from './mfa/secret-box';
import { rekeyMfaSecrets, type RekeyReport } from './mfa/rekey';
import { createTestUser, post, signIn } from '../../../test/identity-support';

/*
 * Rotating MFA_ENCRYPTION_KEY (issue 25): what the old key sealed keeps signing in while the old key is
 * listed in MFA_ENCRYPTION_KEYS_PREVIOUS; an app's secret is sealed again under the new key when it is
 * used, or by `npm run mfa:rekey` (rekeyMfaSecrets); secrets written before key ids (v1) still open.
 */
const K1 = randomBytes(32);
const K2 = randomBytes(32);
const b64 = (k: Buffer) => k.toString('base64');
const codeAt = (key: string, at: Date) =>
  TOTP.generate({ secret: Secret.fromBase32(key), timestamp: at.getTime() });

const opened: Db[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

describe.each(databases())('MFA key rotation on $name', ({ name, open }) => {
  // The command reads the whole database: on the shared PostgreSQL test database other test files' apps
  // (sealed with the development key, which neither key here opens) are counted too, so there the counts
  // are at least ours; this test's own rows are checked exactly on both.
  const expectReport = (report: RekeyReport, ours: Partial<RekeyReport>) => {
    for (const [key, value] of Object.entries(ours) as Array<[keyof RekeyReport, number]>) {
      if (name === 'pglite' || key === 'resealed') expect(report[key], key).toBe(value);
      else expect(report[key], key).toBeGreaterThanOrEqual(value);
    }
  };

  it('keeps old secrets and codes working through a rotation, and re-seals them under the new key', async () => {
    const db = await open();
    opened.push(db);
    const clock = new ManualClock();

    // Under the first key: two customers with an app, one of them with backup codes too.
    const before = await createTestApp({ MFA_ENCRYPTION_KEY: b64(K1) }, { db, clock });
    const ann = await createTestUser(db, { now: clock.now() });
    const ben = await createTestUser(db, { now: clock.now() });
    const identity = before.app.ctx.services.identity;
    const apps: Record<string, { id: string; key: string }> = {};
    for (const who of [ann, ben]) {
      const enrolment = await identity.enrolTotp(who.customerId);
      await identity.activateTotp(who.customerId, enrolment.id, codeAt(enrolment.key, clock.now()));
      apps[who.customerId] = enrolment;
    }
    const { codes } = await identity.createBackupCodes(ann.customerId);
    await before.close();

    const sealed = async (id: string) =>
      (
        await db.query<{ s: string }>(
          'SELECT secret_encrypted AS s FROM identity_authenticator WHERE id = $1',
          [id],
        )
      ).rows[0]!.s;
    expect(await sealed(apps[ann.customerId]!.id)).toMatch(new RegExp(`^v2\\.${keyId(K1)}\\.`));
    // Ben's as the first release wrote it: no key id.
    const benV1 = (await sealed(apps[ben.customerId]!.id)).replace(/^v2\.[^.]+\./, 'v1.');
    await db.query('UPDATE identity_authenticator SET secret_encrypted = $2 WHERE id = $1', [
      apps[ben.customerId]!.id,
      benV1,
    ]);

    // The new key, the old one kept as previous.
    const after = await createTestApp(
      { MFA_ENCRYPTION_KEY: b64(K2), MFA_ENCRYPTION_KEYS_PREVIOUS: ` ${b64(randomBytes(32))}, ${b64(K1)}` },
      { db, clock },
    );
    try {
      const useApp = async (who: typeof ann, passCode: string) => {
        clock.advance(60_000);
        const { stateToken, factors } = await signIn(after.app, who.login, who.password);
        const factor = factors.find((f) => f.factorType === 'token:software:totp')!;
        return post(after.app, `/api/v1/authn/factors/${factor.id}/verify`, { stateToken, passCode });
      };
      // Ann signs in with her app: it works, and her secret is now sealed under the new key.
      expect(
        (await useApp(ann, codeAt(apps[ann.customerId]!.key, new Date(clock.now().getTime() + 60_000))))
          .statusCode,
      ).toBe(200);
      expect(await sealed(apps[ann.customerId]!.id)).toMatch(new RegExp(`^v2\\.${keyId(K2)}\\.`));

      // A backup code made under the old key still signs in, once.
      clock.advance(60_000);
      const { stateToken, factors } = await signIn(after.app, ann.login, ann.password);
      const backup = factors.find((f) => f.factorType === 'backup_code')!;
      const verify = (passCode: string, token = stateToken) =>
        post(after.app, `/api/v1/authn/factors/${backup.id}/verify`, { stateToken: token, passCode });
      expect((await verify(codes[0]!)).statusCode).toBe(200);

      // The command re-seals Ben's v1 secret, and names the backup code set still on the old key.
      expectReport(await rekeyMfaSecrets(db, { current: K2, previous: [K1] }), {
        resealed: 1,
        unreadable: 0,
        backupCodeSetsOnOldKeys: 1,
      });
      expect(await sealed(apps[ben.customerId]!.id)).toMatch(new RegExp(`^v2\\.${keyId(K2)}\\.`));
      expect(
        (await useApp(ben, codeAt(apps[ben.customerId]!.key, new Date(clock.now().getTime() + 60_000))))
          .statusCode,
      ).toBe(200);

      // Run again: nothing left to do. Without the old key, a row it sealed is reported, not guessed.
      expectReport(await rekeyMfaSecrets(db, { current: K2, previous: [K1] }), {
        resealed: 0,
        unreadable: 0,
      });
      await db.query('UPDATE identity_authenticator SET secret_encrypted = $2 WHERE id = $1', [
        apps[ben.customerId]!.id,
        benV1,
      ]);
      expectReport(await rekeyMfaSecrets(db, { current: K2, previous: [] }), {
        resealed: 0,
        unreadable: 1,
      });
    } finally {
      await after.close();
    }
  });
});
