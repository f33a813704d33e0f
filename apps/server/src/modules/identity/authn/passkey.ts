import type { AuthnTransaction, PasskeyAuthenticationResponse } from '@portal/contracts';
import type { Queryable } from '../../../platform/db';
import {
  consumeWebauthnChallenge,
  dropTransactionChallenges,
  findPasskeyByCredentialId,
  findTransactionById,
  findUserById,
  insertWebauthnChallenge,
  listPasskeys,
  recordPasskeyUse,
  recordSuccess,
  type AuthenticatorRow,
  type ChallengePurpose,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import { authenticationOptions, CHALLENGE_MS, verifyAssertion } from '../mfa/webauthn';
import { oktaErrors } from '../okta-errors';
import type { AuthnContext, RequestMeta } from './context';
import { finishTransaction, issueSessionToken } from './finish';
import { identityLimits } from './limits';
import { countFailure, isLocked, lockAccount } from './lockout';
import { checkAddress, countAddressFailure } from './primary-auth';
import { userJson, webauthnChallenge } from './shapes';
import { liveTransaction } from './transactions';

/*
 * Passkeys at sign-in (decision 024): alone (a discoverable passkey with user verification is both
 * factors), or as the second step after the password (Okta's webauthn factor).
 */

const HOUR = 60 * 60_000;

/** A new challenge for `purpose`, stored (5 minutes) so any instance can check the answer. */
async function storeChallenge(
  c: AuthnContext,
  q: Queryable,
  challenge: string,
  purpose: ChallengePurpose,
  binding: { userId?: string; transactionId?: string },
) {
  const at = c.clock.now();
  await insertWebauthnChallenge(q, {
    challenge,
    purpose,
    userId: binding.userId ?? null,
    transactionId: binding.transactionId ?? null,
    createdAt: at,
    expiresAt: new Date(at.getTime() + CHALLENGE_MS),
  });
}

/** The user handle we set at registration: the account id. */
const userHandleOf = (userId: string) => Buffer.from(userId).toString('base64url');

/** Sign in with a passkey alone: a challenge with no allowCredentials (the browser offers what it holds). */
export async function passkeySignInOptions(c: AuthnContext, meta: RequestMeta) {
  if (meta.clientAddress) {
    const decision = await (
      await c.counters()
    ).take(`passkey-options-ip:${meta.clientAddress}`, identityLimits.passkeyOptionsPerAddressPerHour, HOUR);
    if (!decision.allowed) throw oktaErrors.rateLimited(decision);
  }
  const options = await authenticationOptions(c.rp, []);
  await c.db.transaction((q) => storeChallenge(c, q, options.challenge, 'signin', {}));
  return options;
}

type Outcome =
  | { ok: true; sessionToken: string; sessionExpiresAt: Date; user: UserRow }
  | { ok: false; reason: string; customerId: string | null };

/**
 * Sign in with a passkey alone: the assertion over a challenge of passkeySignInOptions, by a passkey
 * registered here, with user verification, on an active account that is not locked. SUCCESS with a
 * sessionToken as a completed second step gives (amr hwk user mfa), or one refusal (401 E0000004) for
 * every failure, so nothing tells whether a passkey or an account exists. Failures count towards the
 * client address's sign-in failures, as wrong passwords do.
 */
export async function passkeySignIn(
  c: AuthnContext,
  credential: PasskeyAuthenticationResponse,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  await checkAddress(c, meta.clientAddress);
  const at = c.clock.now();
  const outcome = await c.db.transaction(async (q): Promise<Outcome> => {
    const passkey = await findPasskeyByCredentialId(q, credential.id, true);
    const user = passkey && (await findUserById(q, passkey.userId, true));
    if (!passkey || !user) {
      // Still use up the challenge, so an unknown passkey cannot keep one alive.
      await consumeChallengeOf(q, credential, at);
      return { ok: false, reason: 'UNKNOWN_PASSKEY', customerId: null };
    }
    const handle = credential.response.userHandle;
    const checked =
      handle === undefined || handle === userHandleOf(user.id)
        ? await verifyAssertion(c.rp, credential, passkey, (challenge) =>
            consumeWebauthnChallenge(q, challenge, 'signin', {}, at),
          )
        : null;
    if (!checked) return { ok: false, reason: 'PASSKEY_INVALID', customerId: user.customerId };
    if (isLocked(c, user)) return { ok: false, reason: 'LOCKED_OUT', customerId: user.customerId };
    if (user.status !== 'ACTIVE') return { ok: false, reason: 'NOT_ACTIVE', customerId: user.customerId };
    await recordPasskeyUse(q, passkey.id, { ...checked, at });
    await recordSuccess(q, user.id, at);
    // RFC 8176: a key held by the device ('hwk') unlocked by the person ('user': user verification), which
    // is two factors ('mfa') with no password.
    const issued = await issueSessionToken(c, q, user, ['hwk', 'user', 'mfa'], meta, at, {
      mfaSendMethod: 'webauthn',
      mfaUsedForLogin: true,
      purpose: 'signin',
      passwordless: true,
      factorId: passkey.id,
    });
    return { ok: true, ...issued, user };
  });
  if (!outcome.ok) {
    await countAddressFailure(c, meta.clientAddress);
    await c.db.transaction((q) =>
      c.audit(q, meta, {
        eventId: 'identity.signin',
        customerId: outcome.customerId,
        isSuccess: false,
        failureReason: outcome.reason,
        details: { mfaSendMethod: 'webauthn', passwordless: true },
      }),
    );
    c.signInOutcome(
      outcome.reason === 'LOCKED_OUT'
        ? 'locked'
        : outcome.reason === 'UNKNOWN_PASSKEY'
          ? 'unknown_user'
          : 'code_refused',
    );
    throw oktaErrors.authenticationFailed();
  }
  c.signInOutcome('signed_in');
  return {
    status: 'SUCCESS',
    sessionToken: outcome.sessionToken,
    expiresAt: outcome.sessionExpiresAt.toISOString(),
    _embedded: { user: userJson(outcome.user) },
  };
}

/** Uses up the sign-in challenge an assertion names, if it can be read (clientDataJSON is JSON). */
async function consumeChallengeOf(q: Queryable, credential: PasskeyAuthenticationResponse, at: Date) {
  try {
    const client = JSON.parse(Buffer.from(credential.response.clientDataJSON, 'base64url').toString('utf8'));
    if (typeof client?.challenge === 'string') {
      await consumeWebauthnChallenge(q, client.challenge, 'signin', {}, at);
    }
  } catch {
    // Not JSON: there is no challenge to use up.
  }
}

/**
 * The second step with a passkey, first call (no assertion): MFA_CHALLENGE with a challenge bound to
 * this transaction, which any of the customer's passkeys may answer. The transaction stays as it was.
 */
export async function challengePasskey(
  c: AuthnContext,
  live: TransactionRow,
  stateToken: string,
  factor: AuthenticatorRow,
): Promise<AuthnTransaction> {
  if (live.status !== 'MFA_REQUIRED' && live.status !== 'MFA_CHALLENGE') throw oktaErrors.wrongState();
  const user = await findUserById(c.db, live.userId);
  if (!user) throw oktaErrors.invalidToken();
  const options = await authenticationOptions(c.rp, await listPasskeys(c.db, user.id));
  await c.db.transaction((q) =>
    storeChallenge(c, q, options.challenge, 'second-step', { transactionId: live.id }),
  );
  return webauthnChallenge(c, stateToken, live, user, factor, options);
}

/** The assertion fields of factor verify, in Okta's names (base64url). */
export interface OktaAssertion {
  clientData?: string | undefined;
  authenticatorData?: string | undefined;
  signatureData?: string | undefined;
  credentialId?: string | undefined;
}

type StepOutcome =
  | { ok: true; sessionToken: string; sessionExpiresAt: Date; user: UserRow }
  | { ok: false; reason: 'wrong-state' | 'invalid' };

/**
 * The second step with a passkey, second call: the assertion over this transaction's challenge, by one
 * of this customer's passkeys (the credentialId given, else the factor of the path). SUCCESS, or 403
 * E0000068 counted towards the lockout (a passkey of another customer included), in one database
 * transaction holding the authn transaction, the user and the passkey.
 */
export async function verifyPasskeyStep(
  c: AuthnContext,
  live: TransactionRow,
  stateToken: string,
  factor: AuthenticatorRow,
  assertion: OktaAssertion,
  meta: RequestMeta,
): Promise<AuthnTransaction> {
  const { clientData, authenticatorData, signatureData } = assertion;
  if (!clientData || !authenticatorData || !signatureData) {
    throw oktaErrors.invalidPasscode(
      'Use your passkey: clientData, authenticatorData and signatureData are required.',
    );
  }
  const credentialId = assertion.credentialId ?? factor.credentialId ?? '';
  const response: PasskeyAuthenticationResponse = {
    id: credentialId,
    rawId: credentialId,
    type: 'public-key',
    response: { clientDataJSON: clientData, authenticatorData, signature: signatureData },
    clientExtensionResults: {},
  };
  const at = c.clock.now();
  const outcome = await c.db.transaction(async (q): Promise<StepOutcome> => {
    const t = await findTransactionById(q, live.id, true);
    if (!t || (t.status !== 'MFA_REQUIRED' && t.status !== 'MFA_CHALLENGE')) {
      return { ok: false, reason: 'wrong-state' };
    }
    const user = await findUserById(q, t.userId, true);
    if (!user) return { ok: false, reason: 'wrong-state' };
    const passkey = await findPasskeyByCredentialId(q, credentialId, true);
    const checked =
      passkey && passkey.userId === user.id
        ? await verifyAssertion(c.rp, response, passkey, (challenge) =>
            consumeWebauthnChallenge(q, challenge, 'second-step', { transactionId: t.id }, at),
          )
        : null;
    if (!passkey || !checked) {
      await dropTransactionChallenges(q, t.id);
      const { lockedNow } = await countFailure(q, user, at);
      await c.audit(q, meta, {
        eventId: 'identity.mfa.failed',
        customerId: user.customerId,
        isSuccess: false,
        failureReason: 'PASSKEY_INVALID',
        details: { purpose: t.kind, factorType: 'webauthn' },
      });
      if (lockedNow) await lockAccount(c, q, user, at, meta, 'CODE');
      return { ok: false, reason: 'invalid' };
    }
    await recordPasskeyUse(q, passkey.id, { ...checked, at });
    const finished = await finishTransaction(c, q, t, user, passkey.id, meta, at, 'webauthn');
    return { ok: true, ...finished, user };
  });
  if (live.kind === 'signin') c.signInOutcome(outcome.ok ? 'signed_in' : 'code_refused');
  if (!outcome.ok) {
    if (outcome.reason === 'wrong-state') {
      await liveTransaction(c, c.db, stateToken);
      throw oktaErrors.wrongState();
    }
    throw oktaErrors.invalidPasscode('That passkey could not be checked. Try again, or choose another way.');
  }
  const fresh = (await findUserById(c.db, outcome.user.id)) ?? outcome.user;
  return {
    status: 'SUCCESS',
    sessionToken: outcome.sessionToken,
    expiresAt: outcome.sessionExpiresAt.toISOString(),
    _embedded: { user: userJson(fresh) },
  };
}
