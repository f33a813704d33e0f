import type { BackupCodes, SignInMethod, TotpEnrolment } from '@portal/contracts/sign-in-methods';
import type { Queryable } from '../../../platform/db';
import { HttpError, notFound } from '../../../platform/errors';
import {
  backupCodesLeft,
  deleteAuthenticator,
  findAuthenticator,
  findUserByCustomerId,
  findUserById,
  insertAuthenticator,
  listAuthenticators,
  listFactors,
  replaceBackupCodes,
  type AuthenticatorRow,
} from '../identity.repository';
import { hashBackupCode, newBackupCodes } from '../mfa/backup-codes';
import { keyId } from '../mfa/secret-box';
import { maskPhone } from '../phone';
import { newId } from '../secrets';
import type { RequestMeta } from '../authn/context';
import type { IdentityServiceContext } from './context';

/* The profile's sign-in methods: the authenticator app and backup codes (set up, confirm), and removing any (passkeys too). */

export async function activeUser(q: Queryable, customerId: string, forUpdate = false) {
  const found = await findUserByCustomerId(q, customerId);
  const user = found && forUpdate ? await findUserById(q, found.id, true) : found;
  if (!user || user.status !== 'ACTIVE') throw notFound('No sign-in account for this customer');
  return user;
}

export const methodJson = async (q: Queryable, f: AuthenticatorRow): Promise<SignInMethod> => ({
  id: f.id,
  type: f.kind === 'webauthn' ? 'passkey' : f.kind,
  status: f.status,
  label: f.name,
  addedAt: f.createdAt.toISOString(),
  lastUsedAt: f.lastUsedAt ? f.lastUsedAt.toISOString() : null,
  ...(f.kind === 'backup_codes' ? { codesLeft: await backupCodesLeft(q, f.id) } : {}),
});

/** Audit row and queued email (in `q`) for a change to the customer's sign-in methods. */
export const tell = (
  c: IdentityServiceContext,
  ...args: Parameters<IdentityServiceContext['authn']['tellFactorChange']>
) => c.authn.tellFactorChange(...args);

export async function listSignInMethods(
  c: IdentityServiceContext,
  customerId: string,
): Promise<SignInMethod[]> {
  const user = await activeUser(c.db, customerId);
  const phones: SignInMethod[] = (await listFactors(c.db, user.id)).map((f) => ({
    id: f.id,
    type: f.factorType,
    status: 'ACTIVE',
    label: maskPhone(f.phoneNumber),
  }));
  const apps = await Promise.all((await listAuthenticators(c.db, user.id)).map((f) => methodJson(c.db, f)));
  return [...phones, ...apps];
}

/** A new app, PENDING_ACTIVATION until its first code (authn/totp-enrolment.ts, shared with MFA_ENROLL). */
export async function enrolTotp(
  c: IdentityServiceContext,
  customerId: string,
  meta: RequestMeta = {},
): Promise<TotpEnrolment> {
  const { user, factor, secret } = await c.db.transaction(async (q) => {
    const user = await activeUser(q, customerId, true);
    return { user, ...(await c.authn.beginTotpEnrolment(q, user, meta)) };
  });
  return { id: factor.id, status: 'PENDING_ACTIVATION', ...c.authn.totpKeyFor(secret, user.login) };
}

type Activation = { ok: true; method: SignInMethod } | { ok: false; error: HttpError };

/**
 * Confirms a pending app with its first code (not a code of a step used before): it becomes ACTIVE and
 * replaces any earlier app. A wrong code counts towards the lockout (400 MFA_CODE_INVALID); a locked
 * account is refused (429).
 */
export async function activateTotp(
  c: IdentityServiceContext,
  customerId: string,
  factorId: string,
  passCode: string,
  meta: RequestMeta = {},
): Promise<SignInMethod> {
  const at = c.now();
  const outcome = await c.db.transaction(async (q): Promise<Activation> => {
    const user = await activeUser(q, customerId, true);
    const factor = await findAuthenticator(q, user.id, factorId, true);
    if (!factor || factor.kind !== 'totp') throw notFound('No such sign-in method for this customer');
    if (c.authn.isLocked(user)) {
      const seconds = Math.max(1, Math.ceil((user.lockedUntil!.getTime() - at.getTime()) / 1000));
      return {
        ok: false,
        error: new HttpError(429, 'ACCOUNT_LOCKED', 'Too many wrong codes. Try again later.', undefined, {
          'retry-after': String(seconds),
        }),
      };
    }
    const fresh = await c.authn.confirmTotpEnrolment(q, user, factor, passCode, at, meta);
    if (!fresh) {
      return {
        ok: false,
        error: new HttpError(
          400,
          'MFA_CODE_INVALID',
          'That code is not right. Enter the code your app shows now.',
        ),
      };
    }
    return { ok: true, method: await methodJson(q, fresh) };
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.method;
}

export async function removeSignInMethod(
  c: IdentityServiceContext,
  customerId: string,
  factorId: string,
  meta: RequestMeta = {},
): Promise<void> {
  const at = c.now();
  await c.db.transaction(async (q) => {
    const user = await activeUser(q, customerId, true);
    const factor = await findAuthenticator(q, user.id, factorId, true);
    if (!factor) throw notFound('No such sign-in method for this customer');
    await deleteAuthenticator(q, factor.id);
    if (factor.status === 'ACTIVE')
      await tell(
        c,
        q,
        user,
        factor.kind === 'totp'
          ? 'app-removed'
          : factor.kind === 'webauthn'
            ? 'passkey-removed'
            : 'backup-codes-removed',
        factor,
        at,
        meta,
      );
  });
}

/** Ten new backup codes (answered this once), replacing any earlier set. */
export async function createBackupCodes(
  c: IdentityServiceContext,
  customerId: string,
  meta: RequestMeta = {},
): Promise<BackupCodes> {
  const at = c.now();
  const codes = newBackupCodes();
  const id = await c.db.transaction(async (q) => {
    const user = await activeUser(q, customerId, true);
    let factor = (await listAuthenticators(q, user.id)).find((f) => f.kind === 'backup_codes');
    if (!factor) {
      factor = {
        id: newId('bkc'),
        userId: user.id,
        kind: 'backup_codes',
        status: 'ACTIVE',
        name: 'Backup codes',
        secretEncrypted: null,
        lastUsedStep: null,
        createdAt: at,
        activatedAt: at,
        lastUsedAt: null,
      };
      await insertAuthenticator(q, factor);
    }
    const factorId = factor.id;
    const key = c.config.mfaEncryptionKey;
    await replaceBackupCodes(
      q,
      factorId,
      codes.map((code) => hashBackupCode(key, factorId, code.replace('-', ''))),
      at,
      keyId(key),
    );
    await tell(c, q, user, 'backup-codes-created', factor, at, meta);
    return factorId;
  });
  return { id, codes, createdAt: at.toISOString() };
}
