import type { IdentityContext } from './context';
import type { RequestMeta } from './authn/context';
import { activationToken } from './authn/activation';
import { cancel } from './authn/cancel';
import { matchCode } from './authn/codes';
import { authnContext, type AuthnContext } from './authn/context';
import { introspect } from './authn/introspect';
import { issueLinkToken } from './authn/link-tokens';
import { countWrongPassword, isLocked, lockAccount } from './authn/lockout';
import { passkeySignIn, passkeySignInOptions } from './authn/passkey';
import { previous } from './authn/previous';
import { primaryAuth, takeUsernameRate } from './authn/primary-auth';
import { recoveryChallenge, recoveryToken } from './authn/recovery';
import { resend } from './authn/resend';
import { resetPassword } from './authn/reset-password';
import { issueCode } from './authn/send-code';
import { createTransaction } from './authn/transactions';
import { padded } from './authn/timing';
import { requestUnlock, unlockChallenge } from './authn/unlock';
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  tellFactorChange,
  totpKeyFor,
} from './authn/totp-enrolment';
import { countWrongAuthenticatorCode, matchAuthenticator } from './authn/verify-authenticator';
import { activateFactor, enrolFactor } from './authn/enrol';
import { verifyFactor } from './authn/verify-factor';

export { identityLimits } from './authn/limits';
export type { RequestMeta } from './authn/context';

export type Authn = ReturnType<typeof createAuthn>;

/**
 * The rules of Okta's classic Authentication API as this portal applies them, one function per step of
 * the transaction in authn/ (primary authentication, activation and recovery tokens, password reset,
 * factor challenge, verify and resend, previous, cancel, introspect), each given the same small context. Also the
 * code and lockout rules that the identity service's step-up codes share. HTTP shapes are built there
 * too, since they are Okta's contract; routes only parse input and set headers.
 */
export function createAuthn(ctx: IdentityContext) {
  const c = authnContext(ctx);
  const step =
    <A extends unknown[], R>(fn: (c: AuthnContext, ...args: A) => R) =>
    (...args: A): R =>
      fn(c, ...args);

  return {
    /* The Okta API, one step each (authn.routes.ts). */
    takeUsernameRate: step(takeUsernameRate),
    primaryAuth: step(primaryAuth),
    activationToken: step(activationToken),
    recoveryToken: step(recoveryToken),
    recoveryChallenge,
    /** Same answer and, padded, the same time for every username: see authn/unlock.ts. */
    requestUnlock: padded((username: string, meta: RequestMeta) =>
      requestUnlock(c, ctx.config.publicUrl, username, meta),
    ),
    unlockChallenge,
    resetPassword: step(resetPassword),
    verifyFactor: step(verifyFactor),
    enrolFactor: step(enrolFactor),
    activateFactor: step(activateFactor),
    passkeySignInOptions: step(passkeySignInOptions),
    passkeySignIn: step(passkeySignIn),
    resend: step(resend),
    previous: step(previous),
    cancel: step(cancel),
    introspect: step(introspect),

    /* Shared with the identity service (registration, portal, step-up codes). */
    passwordRules: c.passwordRules,
    verifyPasswordHash: c.verifyPasswordHash,
    audit: c.audit,
    isLocked: step(isLocked),
    lockAccount: step(lockAccount),
    countWrongPassword: step(countWrongPassword),
    createTransaction: step(createTransaction),
    issueLinkToken: step(issueLinkToken),
    issueCode: step(issueCode),
    matchCode: step(matchCode),
    matchAuthenticator: step(matchAuthenticator),
    countWrongAuthenticatorCode: step(countWrongAuthenticatorCode),
    beginTotpEnrolment: step(beginTotpEnrolment),
    confirmTotpEnrolment: step(confirmTotpEnrolment),
    tellFactorChange: step(tellFactorChange),
    totpKeyFor,
    /** The relying party of passkeys (PUBLIC_URL's host name, the allowed origins). */
    rp: c.rp,
  };
}
