import type { AuthnTransaction } from '@portal/contracts';
import {
  deleteAuthenticator,
  findAuthenticator,
  findTransactionById,
  findUserById,
  updateTransaction,
  type AuthenticatorRow,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import { openWithKeys } from '../mfa/secret-box';
import { oktaErrors, OktaHttpError } from '../okta-errors';
import type { AuthnContext, RequestMeta } from './context';
import { finishTransaction } from './finish';
import { mfaEnroll, mfaEnrollActivate, userJson } from './shapes';
import { beginTotpEnrolment, confirmTotpEnrolment, qrCodeDataUrl, totpKeyFor } from './totp-enrolment';
import { liveTransaction, userOf } from './transactions';

/*
 * Okta's enrolment in the authn API (decision 023): a user with no factor to sign in with is answered
 * MFA_ENROLL after the password (or a reset password), sets up an authenticator app here
 * (MFA_ENROLL_ACTIVATE) and finishes the sign-in with its first code. The app itself is set up and
 * confirmed by the same code as the profile's (totp-enrolment.ts).
 */

const unsupportedFactor = () =>
  new OktaHttpError(400, 'E0000001', 'Api validation failed: factorType', [
    "factorType: only an authenticator app ('token:software:totp', provider 'GOOGLE') can be set up here.",
  ]);

/** MFA_ENROLL_ACTIVATE for the transaction's pending app: its secret opened again from the database. */
async function activationAnswer(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
  factor: AuthenticatorRow,
): Promise<AuthnTransaction> {
  const { secret } = openWithKeys(c.mfaKeys, factor.secretEncrypted!, factor.id);
  const { key, otpauthUri } = totpKeyFor(secret, user.login);
  return mfaEnrollActivate(c, stateToken, t, user, factor, {
    sharedSecret: key,
    qrCode: await qrCodeDataUrl(otpauthUri),
  });
}

/**
 * POST /api/v1/authn/factors {stateToken, factorType, provider} from MFA_ENROLL: a new app for the user,
 * PENDING_ACTIVATION and bound to this transaction; MFA_ENROLL_ACTIVATE with its secret and QR code.
 */
export async function enrolFactor(
  c: AuthnContext,
  stateToken: string,
  factorType: string,
  provider: string,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const started = await c.db.transaction(async (q) => {
    const t = await liveTransaction(c, q, stateToken, true);
    if (t.status !== 'MFA_ENROLL') throw oktaErrors.wrongState();
    if (factorType !== 'token:software:totp' || provider !== 'GOOGLE') throw unsupportedFactor();
    const user = await findUserById(q, t.userId, true);
    if (!user) throw oktaErrors.invalidToken();
    const { factor } = await beginTotpEnrolment(c, q, user, meta);
    await updateTransaction(q, t.id, { status: 'MFA_ENROLL_ACTIVATE', enrolFactorId: factor.id });
    return { t: { ...t, status: 'MFA_ENROLL_ACTIVATE' as const, enrolFactorId: factor.id }, user, factor };
  });
  return activationAnswer(c, stateToken, started.t, started.user, started.factor);
}

type Activated =
  | { ok: true; sessionToken: string; sessionExpiresAt: Date; user: UserRow }
  | { ok: false; reason: 'wrong-state' | 'not-found' | 'invalid' };

/**
 * POST /api/v1/authn/factors/{factorId}/lifecycle/activate {stateToken, passCode} from
 * MFA_ENROLL_ACTIVATE: the app's first code, in one database transaction holding the authn transaction,
 * the user and the factor. Right: the app is ACTIVE, the customer emailed, and the transaction finishes as
 * after any second factor (SUCCESS, sessionToken). Wrong: 403 E0000068, counted towards the lockout. A
 * factor this transaction is not setting up (another user's, or one from the profile): 404 E0000007.
 */
export async function activateFactor(
  c: AuthnContext,
  factorId: string,
  stateToken: string,
  passCode: string | undefined,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const live = await liveTransaction(c, c.db, stateToken);
  if (live.status !== 'MFA_ENROLL_ACTIVATE') throw oktaErrors.wrongState();
  if (live.enrolFactorId !== factorId) throw oktaErrors.factorNotFound(factorId);
  if (passCode === undefined || passCode === '') throw oktaErrors.invalidPasscode('Enter the code.');
  const at = c.clock.now();
  const outcome = await c.db.transaction(async (q): Promise<Activated> => {
    const t = await findTransactionById(q, live.id, true);
    if (!t || t.status !== 'MFA_ENROLL_ACTIVATE') return { ok: false, reason: 'wrong-state' };
    if (t.enrolFactorId !== factorId) return { ok: false, reason: 'not-found' };
    const user = await findUserById(q, t.userId, true);
    const factor = user && (await findAuthenticator(q, user.id, factorId, true));
    if (!user || !factor || factor.kind !== 'totp' || factor.status !== 'PENDING_ACTIVATION') {
      return { ok: false, reason: 'not-found' };
    }
    const active = await confirmTotpEnrolment(c, q, user, factor, passCode, at, meta);
    if (!active) return { ok: false, reason: 'invalid' };
    await updateTransaction(q, t.id, { enrolFactorId: null });
    const finished = await finishTransaction(c, q, t, user, factor.id, meta, at, 'totp');
    return { ok: true, ...finished, user };
  });
  if (live.kind === 'signin') c.signInOutcome(outcome.ok ? 'signed_in' : 'code_refused');
  if (!outcome.ok) {
    if (outcome.reason === 'invalid') {
      throw oktaErrors.invalidPasscode(
        'That code is not right. Check the code your app shows now and try again.',
      );
    }
    // A lock that happened meanwhile ended the transaction: 401 as Okta would.
    await liveTransaction(c, c.db, stateToken);
    throw outcome.reason === 'wrong-state' ? oktaErrors.wrongState() : oktaErrors.factorNotFound(factorId);
  }
  const fresh = (await findUserById(c.db, outcome.user.id)) ?? outcome.user;
  return {
    status: 'SUCCESS',
    sessionToken: outcome.sessionToken,
    expiresAt: outcome.sessionExpiresAt.toISOString(),
    _embedded: { user: userJson(fresh) },
  };
}

/** MFA_ENROLL_ACTIVATE back to MFA_ENROLL (Okta's `prev`): the app being set up is dropped. */
export async function backToEnrol(c: AuthnContext, stateToken: string): Promise<AuthnTransaction> {
  const t = await c.db.transaction(async (q) => {
    const fresh = await liveTransaction(c, q, stateToken, true);
    if (fresh.status !== 'MFA_ENROLL_ACTIVATE') throw oktaErrors.wrongState();
    if (fresh.enrolFactorId) {
      const factor = await findAuthenticator(q, fresh.userId, fresh.enrolFactorId, true);
      if (factor?.status === 'PENDING_ACTIVATION') await deleteAuthenticator(q, factor.id);
    }
    await updateTransaction(q, fresh.id, { status: 'MFA_ENROLL', enrolFactorId: null });
    return { ...fresh, status: 'MFA_ENROLL' as const, enrolFactorId: null };
  });
  return mfaEnroll(c, stateToken, t, await userOf(c.db, t));
}

/** The transaction in MFA_ENROLL or MFA_ENROLL_ACTIVATE as it stands (introspect, resume). */
export async function enrolAnswer(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
): Promise<AuthnTransaction> {
  if (t.status === 'MFA_ENROLL_ACTIVATE' && t.enrolFactorId) {
    const factor = await findAuthenticator(c.db, user.id, t.enrolFactorId);
    if (factor?.status === 'PENDING_ACTIVATION') return activationAnswer(c, stateToken, t, user, factor);
  }
  return mfaEnroll(c, stateToken, t, user);
}
