import type { FactorType } from '@portal/contracts/identity';
import type { VerifiedWith } from './session-machine';
import { logAuditEvent, type AuditEventFields, type AuditFailureReason } from './audit/log-audit-event';
import type { CurrentUser } from './tokens';

/**
 * The audit events of the sign-in steps (spec sections 3 and 8): the fields each step records, sent by
 * session/audit (session id, bearer token once signed in, failures swallowed).
 */
const authAuditEventIds = {
  /** Sign-in finished (tokens received) or failed (wrong password, refused exchange). */
  login: 'Login',
  /** A code was asked for by text (sms) or voice call (call). */
  mfaSend: 'MfaCodeSent',
  /** A code was checked. */
  mfaVerify: 'MfaVerify',
} as const;

export type AuthFailureReason = AuditFailureReason;

interface SignInAudit {
  isSuccess: boolean;
  failureReason?: AuthFailureReason;
  user?: CurrentUser;
  mfaSendMethod?: VerifiedWith | undefined;
  stateToken?: string | undefined;
}

function send(event: AuditEventFields): void {
  // Never rejects; spec: audit failures never break or delay the journey.
  void logAuditEvent(event);
}

/** Sign-in success (after the token exchange) or failure. */
export function auditSignIn({
  isSuccess,
  failureReason,
  user,
  mfaSendMethod,
  stateToken,
}: SignInAudit): void {
  send({
    eventId: authAuditEventIds.login,
    isSuccess,
    failureReason: failureReason ?? null,
    customerId: user?.customerId ?? null,
    onBehalfOf: user?.onBehalfOf ?? null,
    mfaSendMethod: mfaSendMethod ?? null,
    mfaUsedForLogin: isSuccess ? mfaSendMethod !== undefined : null,
    authenticationStatus: user ? 'Authenticated' : 'Unauthenticated',
    ...(stateToken ? { stateToken } : {}),
  });
}

/** A code asked for by the chosen method. */
export function auditMfaSend(
  method: FactorType,
  isSuccess: boolean,
  failureReason?: AuthFailureReason,
): void {
  send({
    eventId: authAuditEventIds.mfaSend,
    isSuccess,
    failureReason: failureReason ?? null,
    mfaSendMethod: method,
    authenticationStatus: 'Unauthenticated',
  });
}

/** A code checked: success means the second factor was used for this sign-in. */
export function auditMfaVerify(
  method: FactorType | undefined,
  isSuccess: boolean,
  failureReason?: AuthFailureReason,
): void {
  send({
    eventId: authAuditEventIds.mfaVerify,
    isSuccess,
    failureReason: failureReason ?? null,
    mfaSendMethod: method ?? null,
    mfaUsedForLogin: isSuccess,
    authenticationStatus: 'Unauthenticated',
  });
}
