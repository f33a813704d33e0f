import { callApi } from '../lib/api-client';
import { auditEventIds } from './audit/audit-event-ids';
import { auditFailureReasonOf, logAuditEvent } from './audit/log-audit-event';
import {
  localKeys,
  readLocal,
  readSession,
  removeLocal,
  removeSession,
  sessionKeys,
  writeLocal,
  writeSession,
} from './storage-keys';

/**
 * The registration journey shared by the registration pages (which start it) and the first-sign-in
 * preferences step (which finishes it): the spec's registration-journey flag, and the registration's
 * completion once the activation transaction has reached SUCCESS.
 */

/** Spec section 3: '1' in local storage while registering. */
export function startRegistrationJourney(): void {
  writeLocal(localKeys.registrationJourney, '1');
}

export function isRegistrationJourney(): boolean {
  return readLocal(localKeys.registrationJourney) === '1';
}

/** The first-sign-in preferences step is done: the customer is no longer registering. */
export function endRegistrationJourney(): void {
  removeLocal(localKeys.registrationJourney);
}

/*
 * Completing a registration needs the activation transaction's state token after its second factor
 * succeeded, which happens on the challenge page and is followed by a full-page round trip to the identity
 * provider. The password page therefore leaves {oktaUserId, stateToken} here, in this tab's session storage
 * only, until the account page sends it. The state token dies with its transaction (10 minutes), so a
 * left-over entry is useless to anyone; it is removed as soon as it is sent or has expired.
 */
const PENDING_COMPLETION_KEY = sessionKeys.registrationCompletion;

export interface PendingCompletion {
  oktaUserId: string;
  stateToken: string;
  /** ISO 8601: when the activation transaction (and its state token) expires. */
  expiresAt: string;
}

export function rememberPendingCompletion(pending: PendingCompletion): void {
  // Without storage the registration is completed by the identity service's activation alone.
  writeSession(PENDING_COMPLETION_KEY, JSON.stringify(pending));
}

function forgetPendingCompletion(): void {
  removeSession(PENDING_COMPLETION_KEY);
}

/** The pending completion, if one is stored and not expired (an expired or malformed one is removed). */
export function readPendingCompletion(now: Date = new Date()): PendingCompletion | null {
  const raw = readSession(PENDING_COMPLETION_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingCompletion>;
    if (
      typeof value.oktaUserId === 'string' &&
      typeof value.stateToken === 'string' &&
      typeof value.expiresAt === 'string' &&
      Date.parse(value.expiresAt) > now.getTime()
    ) {
      return { oktaUserId: value.oktaUserId, stateToken: value.stateToken, expiresAt: value.expiresAt };
    }
  } catch {
    // Malformed: dropped below.
  }
  forgetPendingCompletion();
  return null;
}

let inFlight: Promise<boolean> | null = null;

/**
 * Sends the pending completion (POST {registration}/api/v1/registration/complete {oktaUserId, stateToken})
 * once, and records it in the audit trail. Resolves true when the service completed it, false when there was
 * nothing to send or it failed; a failure never interrupts the customer (the account is active either way).
 */
export function completePendingRegistration(): Promise<boolean> {
  inFlight ??= (async () => {
    const pending = readPendingCompletion();
    if (!pending) return false;
    forgetPendingCompletion();
    try {
      // Its contract loads only for the one call at the end of a registration.
      const { completeRegistrationCall } = await import('@portal/contracts/registration');
      await callApi(completeRegistrationCall, {
        body: { oktaUserId: pending.oktaUserId, stateToken: pending.stateToken },
      });
      void logAuditEvent({ eventId: auditEventIds.registrationComplete, isSuccess: true });
      return true;
    } catch (error) {
      void logAuditEvent({
        eventId: auditEventIds.registrationComplete,
        isSuccess: false,
        failureReason: auditFailureReasonOf(error),
      });
      return false;
    }
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}
