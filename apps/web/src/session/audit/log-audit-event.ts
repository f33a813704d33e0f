import type { AuditEventInput } from '@portal/contracts/eventlog';
import { ApiError, callApi, NetworkError } from '../../lib/api-client';
import { getAuthSnapshot } from '../session-store';
import { getSessionId } from '../../lib/session-id';

/**
 * Client audit events (spec access-and-session sections 3 and 8): posted to the event-logging service with
 * the tab's session id. Failures are swallowed: an audit event never breaks, delays or redirects a journey.
 */

/** The spec's failure texts, word for word. */
export const AUDIT_FAILURE = {
  network: 'Network communication problem',
  authentication: 'Authentication failure',
  tokenExpired: 'Token expired',
} as const;
export type AuditFailureReason = (typeof AUDIT_FAILURE)[keyof typeof AUDIT_FAILURE];

type AuthenticationStatus = 'Authenticated' | 'Unauthenticated';

/**
 * An audit event as a caller gives it: every field of the spec's audit event except the session id,
 * which is always this tab's. `authenticationStatus` defaults to the tab's signed-in flag.
 */
export type AuditEventFields = Omit<AuditEventInput, 'sessionId' | 'authenticationStatus'> & {
  authenticationStatus?: AuthenticationStatus;
};

/**
 * The spec's failure text for a failed call: no answer at all is a network problem; a refused bearer
 * token (401 on an authorised call) has expired; anything else the service refused is an authentication
 * failure.
 */
export function auditFailureReasonOf(
  error: unknown,
  options: { authorisedCall?: boolean } = {},
): AuditFailureReason {
  if (error instanceof NetworkError) return AUDIT_FAILURE.network;
  if (error instanceof TypeError) return AUDIT_FAILURE.network;
  if (options.authorisedCall && error instanceof ApiError && error.status === 401)
    return AUDIT_FAILURE.tokenExpired;
  return AUDIT_FAILURE.authentication;
}

/**
 * The body to send. Without a bearer token the service accepts only Unauthenticated events that name no
 * customer, so the ids are left out then; with one, it checks them against the token.
 */
export function auditEventBody(
  event: AuditEventFields,
  sessionId: string,
  signedIn: boolean,
): AuditEventInput {
  const status: AuthenticationStatus =
    event.authenticationStatus ?? (signedIn ? 'Authenticated' : 'Unauthenticated');
  const body: AuditEventInput = { ...event, sessionId, authenticationStatus: status };
  if (status === 'Unauthenticated') {
    delete body.customerId;
    delete body.onBehalfOf;
  }
  for (const key of Object.keys(body) as Array<keyof AuditEventInput>) {
    if (body[key] === undefined) delete body[key];
  }
  return body;
}

/**
 * Records one audit event. Resolves once the service has answered or the call failed; it never rejects,
 * so callers may simply `void logAuditEvent(...)`. Authenticated events carry the bearer token (the
 * service then takes the customer id from it).
 */
export async function logAuditEvent(event: AuditEventFields): Promise<void> {
  try {
    const body = auditEventBody(event, getSessionId(), getAuthSnapshot().isAuthenticated);
    // The event-log contract (and the contracts it builds on) loads with the first event, not with the
    // pages that may send one: an audit event is never urgent.
    const { postAuditEventCall } = await import('@portal/contracts/eventlog');
    const call =
      body.authenticationStatus === 'Authenticated'
        ? { ...postAuditEventCall, auth: true }
        : postAuditEventCall;
    await callApi(call, { body });
  } catch {
    // Spec section 8: audit logging failures are swallowed.
  }
}
