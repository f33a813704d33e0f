// Types only: this module is on every page (session storage), the identity contracts are not.
import type { FactorType, SessionStatus, SignInFactor } from '@portal/contracts/identity';

/** How a sign-in's second step was done (the login audit event's mfaSendMethod). */
export type VerifiedWith = FactorType | 'totp' | 'backup_code' | 'webauthn';
const verifiedWithValues: readonly string[] = ['sms', 'call', 'totp', 'backup_code', 'webauthn'];

export type { SessionStatus };

/**
 * The sign-in journey's session data (spec section 3), kept under `authState` in session storage so it
 * survives the full-page round trip to the identity provider and a reload, but not the tab.
 */
export interface SessionData {
  status: SessionStatus;
  stateToken?: string;
  factorId?: string;
  factorType?: FactorType;
  /** After SUCCESS: how the second step was done (a code's factor, the app, a backup code, a passkey). */
  verifiedWith?: VerifiedWith;
  phoneNumber?: string;
  factors?: SignInFactor[];
  oktaUserId?: string;
  landlineIsAMobile?: boolean;
}

/** What happened in the journey; each moves the session from one status to the next. */
export type SessionEvent =
  /** The password (or an activation/recovery step) was accepted and a second factor is needed. */
  | { type: 'mfaRequired'; stateToken: string; factors: SignInFactor[]; oktaUserId?: string }
  /** A code was sent by the chosen factor (or sent again). */
  | {
      type: 'challengeSent';
      stateToken: string;
      factorId: string;
      factorType: FactorType;
      phoneNumber: string;
      landlineIsAMobile: boolean;
    }
  /** The identity provider answered SUCCESS with a one-time sessionToken; the token exchange follows. */
  | { type: 'verified'; method?: VerifiedWith }
  /** Tokens arrived and no address to go to was waiting: the first-login marketing step comes next. */
  | { type: 'tokensReceived'; next: 'marketingPreferences' | 'loggedIn' }
  /** The marketing step is done (or was done before): the customer is fully signed in. */
  | { type: 'marketingDone' }
  /** Cancelled, failed, signed out. */
  | { type: 'reset' };

export class SessionTransitionError extends Error {
  override name = 'SessionTransitionError';
}

/** Which statuses each event may follow (null: no session data yet). */
const allowedFrom: Record<SessionEvent['type'], ReadonlyArray<SessionStatus | null>> = {
  // A new password or a new sign-in may start over from anywhere before tokens exist.
  mfaRequired: [null, 'mfaRequired', 'mfaChallenge', 'success'],
  challengeSent: ['mfaRequired', 'mfaChallenge'],
  // A password page result can carry a sessionToken without any code (spec: "Result with session token logs the user in").
  verified: [null, 'mfaRequired', 'mfaChallenge', 'success'],
  tokensReceived: ['success'],
  marketingDone: ['marketingPreferences', 'loggedIn'],
  reset: [null, 'mfaRequired', 'mfaChallenge', 'success', 'marketingPreferences', 'loggedIn'],
};

/**
 * The session state machine of spec section 4: mfaRequired -> mfaChallenge -> success ->
 * marketingPreferences -> loggedIn (or success -> loggedIn when a RelayState or redirect_url address takes
 * the customer elsewhere). Returns the next data, or null after a reset. An event that cannot follow the
 * current status throws, so a page reached out of order starts the journey again instead of guessing.
 */
export function transition(current: SessionData | null, event: SessionEvent): SessionData | null {
  const from = current?.status ?? null;
  if (!allowedFrom[event.type].includes(from)) {
    throw new SessionTransitionError(`${event.type} cannot follow ${from ?? 'no session'}`);
  }
  switch (event.type) {
    case 'mfaRequired':
      return {
        status: 'mfaRequired',
        stateToken: event.stateToken,
        factors: event.factors,
        ...(event.oktaUserId ? { oktaUserId: event.oktaUserId } : {}),
      };
    case 'challengeSent':
      return {
        ...current!,
        status: 'mfaChallenge',
        stateToken: event.stateToken,
        factorId: event.factorId,
        factorType: event.factorType,
        phoneNumber: event.phoneNumber,
        landlineIsAMobile: event.landlineIsAMobile,
      };
    case 'verified': {
      // The state token is spent; keep only what the login audit event needs after the redirect.
      const kept: SessionData = { status: 'success' };
      const method = event.method ?? current?.factorType;
      if (method) kept.verifiedWith = method;
      if (current?.oktaUserId) kept.oktaUserId = current.oktaUserId;
      return kept;
    }
    case 'tokensReceived':
      return { status: event.next, ...(current?.oktaUserId ? { oktaUserId: current.oktaUserId } : {}) };
    case 'marketingDone':
      return { status: 'loggedIn', ...(current?.oktaUserId ? { oktaUserId: current.oktaUserId } : {}) };
    case 'reset':
      return null;
  }
}

const sessionStatuses: readonly SessionStatus[] = [
  'mfaRequired',
  'mfaChallenge',
  'success',
  'marketingPreferences',
  'loggedIn',
];

/** Parses stored session data defensively: storage is user-editable and may hold an older shape. */
export function parseSessionData(raw: string | null): SessionData | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const data = value as Record<string, unknown>;
  if (!sessionStatuses.includes(data['status'] as SessionStatus)) return null;
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
  const result: SessionData = { status: data['status'] as SessionStatus };
  for (const key of ['stateToken', 'factorId', 'phoneNumber', 'oktaUserId'] as const) {
    const v = text(key);
    if (v !== undefined) result[key] = v;
  }
  const factorType = text('factorType');
  if (factorType === 'sms' || factorType === 'call') result.factorType = factorType;
  const verifiedWith = text('verifiedWith');
  if (verifiedWith && verifiedWithValues.includes(verifiedWith))
    result.verifiedWith = verifiedWith as VerifiedWith;
  if (typeof data['landlineIsAMobile'] === 'boolean') result.landlineIsAMobile = data['landlineIsAMobile'];
  if (Array.isArray(data['factors'])) {
    result.factors = (data['factors'] as unknown[]).flatMap((f): SignInFactor[] => {
      if (!f || typeof f !== 'object') return [];
      const { id, type, phoneNumber, codesLeft, line } = f as Record<string, unknown>;
      if (typeof id !== 'string') return [];
      if ((type === 'sms' || type === 'call') && typeof phoneNumber === 'string')
        return [{ id, type, phoneNumber, ...(line === 'mobile' || line === 'landline' ? { line } : {}) }];
      if (type === 'totp' || type === 'webauthn') return [{ id, type }];
      if (type === 'backup_code' && typeof codesLeft === 'number') return [{ id, type, codesLeft }];
      return [];
    });
  }
  return result;
}
