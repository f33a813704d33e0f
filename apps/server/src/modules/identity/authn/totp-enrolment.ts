import QRCode from 'qrcode';
import type { Queryable } from '../../../platform/db';
import { securityEmail, type SecurityEvent } from '../emails';
import {
  deleteAuthenticator,
  findAuthenticator,
  insertAuthenticator,
  listAuthenticators,
  type AuthenticatorRow,
  type UserRow,
} from '../identity.repository';
import { sealSecret } from '../mfa/secret-box';
import { base32Of, newTotpSecret, otpauthUri } from '../mfa/totp';
import { newId } from '../secrets';
import type { AuthnContext, RequestMeta } from './context';
import { countWrongAuthenticatorCode, matchAuthenticator } from './verify-authenticator';

/*
 * Setting up an authenticator app, whichever door the customer comes through: the profile's sign-in
 * methods (service/authenticators.ts, signed in) or Okta's MFA_ENROLL / MFA_ENROLL_ACTIVATE in the authn
 * API (authn/enrol.ts, after the password, for a customer with no factor to use). One implementation.
 */

/** The name the app shows beside the code. */
const ISSUER = 'Customer portal';

/** What the customer puts into the app: the key as text and the otpauth:// URI the QR code carries. */
export function totpKeyFor(secret: Buffer, login: string): { key: string; otpauthUri: string } {
  return { key: base32Of(secret), otpauthUri: otpauthUri(secret, ISSUER, login) };
}

/** The QR code of an otpauth:// URI as a PNG `data:` URL, drawn here (no third-party image service). */
export const qrCodeDataUrl = (uri: string): Promise<string> =>
  QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, scale: 4 });

/** Audit row and queued email (in `q`) for a change to the customer's sign-in methods. */
export async function tellFactorChange(
  c: AuthnContext,
  q: Queryable,
  user: UserRow,
  event: SecurityEvent,
  factor: AuthenticatorRow,
  at: Date,
  meta: RequestMeta,
) {
  await c.audit(q, meta, {
    eventId: `identity.factor.${event}`,
    customerId: user.customerId,
    isSuccess: true,
    details: { factorType: factor.kind, factorId: factor.id },
  });
  await c.notifier().enqueue(securityEmail(user.login, user, c.publicUrl, event, at), {
    tx: q,
    log: meta.log,
  });
}

/**
 * A new app for `user` (in `q`, holding the user's row): a fresh 160-bit secret sealed under the current
 * key, PENDING_ACTIVATION until its first code; an earlier app still pending is dropped (one at a time).
 * Audited `identity.factor.enrol`; nothing is emailed until the app counts.
 */
export async function beginTotpEnrolment(
  c: AuthnContext,
  q: Queryable,
  user: UserRow,
  meta: RequestMeta,
): Promise<{ factor: AuthenticatorRow; secret: Buffer }> {
  const at = c.clock.now();
  const secret = newTotpSecret();
  const id = newId('ost');
  for (const f of await listAuthenticators(q, user.id)) {
    if (f.kind === 'totp' && f.status === 'PENDING_ACTIVATION') await deleteAuthenticator(q, f.id);
  }
  const factor: AuthenticatorRow = {
    id,
    userId: user.id,
    kind: 'totp',
    status: 'PENDING_ACTIVATION',
    name: 'Authenticator app',
    secretEncrypted: sealSecret(c.mfaKeys.current, secret, id),
    lastUsedStep: null,
    createdAt: at,
    activatedAt: null,
    lastUsedAt: null,
  };
  await insertAuthenticator(q, factor);
  await c.audit(q, meta, {
    eventId: 'identity.factor.enrol',
    customerId: user.customerId,
    isSuccess: true,
    details: { factorType: 'totp', factorId: id },
  });
  return { factor, secret };
}

/**
 * The first code of an app (in `q`, holding the user's and the factor's rows): a code of a step not used
 * before, one step of drift either way. Right: the app is ACTIVE, replaces any earlier app, and the
 * customer is emailed (audit `identity.factor.app-added`). Wrong: counted towards the lockout like any
 * wrong code (audit `identity.mfa.failed`, purpose `enrol`).
 */
export async function confirmTotpEnrolment(
  c: AuthnContext,
  q: Queryable,
  user: UserRow,
  factor: AuthenticatorRow,
  passCode: string,
  at: Date,
  meta: RequestMeta,
): Promise<AuthenticatorRow | null> {
  if (!(await matchAuthenticator(c, q, factor, passCode, at))) {
    await countWrongAuthenticatorCode(c, q, user, factor, 'enrol', at, meta);
    return null;
  }
  for (const f of await listAuthenticators(q, user.id)) {
    if (f.kind === 'totp' && f.id !== factor.id) await deleteAuthenticator(q, f.id);
  }
  const fresh = (await findAuthenticator(q, user.id, factor.id))!;
  if (factor.status !== 'ACTIVE') await tellFactorChange(c, q, user, 'app-added', fresh, at, meta);
  return fresh;
}
