import type { AuthnTransaction, OktaAppFactor, OktaFactor } from '@portal/contracts';
import type { Queryable } from '../../../platform/db';
import {
  backupCodesLeft,
  listAuthenticators,
  listFactors,
  type AuthenticatorRow,
  type FactorRow,
  type TransactionRow,
  type UserRow,
} from '../identity.repository';
import type { authenticationOptions } from '../mfa/webauthn';
import { oktaPasswordPolicy } from '../password-policy';
import { maskPhone } from '../phone';
import type { AuthnContext } from './context';

/* Okta's answers: HTTP shapes are built here, since they are Okta's contract; routes only parse input. */

const link = (c: AuthnContext, path: string, name?: string) => ({
  ...(name ? { name } : {}),
  href: `${c.orgUrl}${path}`,
  hints: { allow: ['POST'] },
});

const cancelLink = (c: AuthnContext) => link(c, '/api/v1/authn/cancel');

export const userJson = (user: UserRow) => ({
  id: user.id,
  passwordChanged: user.passwordChangedAt ? user.passwordChangedAt.toISOString() : null,
  profile: {
    login: user.login,
    firstName: user.firstName,
    lastName: user.lastName,
    locale: 'en_GB',
    timeZone: 'Europe/London',
  },
});

const factorJson = (c: AuthnContext, f: FactorRow): OktaFactor => ({
  id: f.id,
  factorType: f.factorType,
  provider: 'OKTA',
  vendorName: 'OKTA',
  profile: {
    phoneNumber: maskPhone(f.phoneNumber),
    landlineIsAMobile: f.factorType === 'call' && f.isMobile,
  },
  _links: { verify: link(c, `/api/v1/authn/factors/${f.id}/verify`) },
});

const appKinds = {
  totp: { factorType: 'token:software:totp', provider: 'GOOGLE' },
  backup_codes: { factorType: 'backup_code', provider: 'CUSTOM' },
  webauthn: { factorType: 'webauthn', provider: 'FIDO' },
} as const;

/** An authenticator app or a passkey (Okta's shapes) or backup codes (ours): see contracts' oktaAppFactor. */
const appFactorJson = (c: AuthnContext, f: AuthenticatorRow, codesLeft?: number): OktaAppFactor => ({
  id: f.id,
  factorType: appKinds[f.kind].factorType,
  provider: appKinds[f.kind].provider,
  vendorName: appKinds[f.kind].provider,
  profile: {
    name: f.name,
    ...(codesLeft === undefined ? {} : { codesLeft }),
    ...(f.credentialId ? { credentialId: f.credentialId } : {}),
  },
  _links: { verify: link(c, `/api/v1/authn/factors/${f.id}/verify`) },
});

type Listed = { json: OktaFactor | OktaAppFactor; lastUsedAt: Date | null };

/** The user's active app factors as MFA_REQUIRED lists them; backup codes only while some are left. */
async function activeAppFactors(c: AuthnContext, userId: string): Promise<Listed[]> {
  const out: Listed[] = [];
  for (const f of await listAuthenticators(c.db, userId)) {
    if (f.status !== 'ACTIVE') continue;
    if (f.kind !== 'backup_codes') out.push({ json: appFactorJson(c, f), lastUsedAt: f.lastUsedAt });
    else {
      const left = await backupCodesLeft(c.db, f.id);
      if (left > 0) out.push({ json: appFactorJson(c, f, left), lastUsedAt: f.lastUsedAt });
    }
  }
  return out;
}

/**
 * Every factor of the user, the one used last first (then the others by when they were last used); those
 * never used keep their own order after them: text, call, the app, backup codes. A customer who has never
 * used any sees the text message first, as before there was a choice.
 */
async function factorsInOrder(c: AuthnContext, userId: string): Promise<Array<OktaFactor | OktaAppFactor>> {
  const phones: Listed[] = (await listFactors(c.db, userId)).map((f) => ({
    json: factorJson(c, f),
    lastUsedAt: f.lastUsedAt,
  }));
  const all = [...phones, ...(await activeAppFactors(c, userId))];
  const used = (l: Listed) => l.lastUsedAt?.getTime() ?? 0;
  // Array.prototype.sort is stable, so the unused keep their order.
  return all.sort((a, b) => used(b) - used(a)).map((l) => l.json);
}

/**
 * Whether the user has a second factor to sign in with: a phone number, an active app or passkey, or
 * backup codes with some left. Without one, the step after the password is MFA_ENROLL.
 */
async function hasUsableFactor(q: Queryable, userId: string): Promise<boolean> {
  if ((await listFactors(q, userId)).length > 0) return true;
  for (const f of await listAuthenticators(q, userId)) {
    if (f.status !== 'ACTIVE') continue;
    if (f.kind !== 'backup_codes' || (await backupCodesLeft(q, f.id)) > 0) return true;
  }
  return false;
}

/** The status after the password: MFA_REQUIRED, or MFA_ENROLL for a user with nothing to verify with. */
export const secondStepStatus = async (q: Queryable, userId: string) =>
  (await hasUsableFactor(q, userId)) ? ('MFA_REQUIRED' as const) : ('MFA_ENROLL' as const);

/**
 * MFA_ENROLL: what the user may set up, as Okta lists it. Only an authenticator app: phone numbers come
 * from the customer record (their own checks, in the profile), and passkeys from the signed-in profile.
 */
export function mfaEnroll(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
): AuthnTransaction {
  return {
    status: 'MFA_ENROLL',
    stateToken,
    expiresAt: t.expiresAt.toISOString(),
    _embedded: {
      user: userJson(user),
      factors: [
        {
          factorType: 'token:software:totp',
          provider: 'GOOGLE',
          vendorName: 'GOOGLE',
          status: 'NOT_SETUP',
          enrollment: 'REQUIRED',
          _links: { enroll: link(c, '/api/v1/authn/factors') },
        },
      ],
    },
    _links: { cancel: cancelLink(c) },
  };
}

/** MFA_ENROLL_ACTIVATE: the app being set up, its shared secret and QR code, and where its first code goes. */
export function mfaEnrollActivate(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
  factor: AuthenticatorRow,
  activation: { sharedSecret: string; qrCode: string | null },
): AuthnTransaction {
  return {
    status: 'MFA_ENROLL_ACTIVATE',
    stateToken,
    expiresAt: t.expiresAt.toISOString(),
    _embedded: {
      user: userJson(user),
      factor: {
        id: factor.id,
        factorType: 'token:software:totp',
        provider: 'GOOGLE',
        vendorName: 'GOOGLE',
        status: 'PENDING_ACTIVATION',
        profile: { credentialId: user.login },
        _embedded: {
          activation: {
            timeStep: 30,
            sharedSecret: activation.sharedSecret,
            encoding: 'base32',
            // Okta's keyLength is the secret's length in base32 characters.
            keyLength: activation.sharedSecret.length,
            ...(activation.qrCode
              ? { _links: { qrcode: { href: activation.qrCode, type: 'image/png' as const } } }
              : {}),
          },
        },
      },
    },
    _links: {
      next: link(c, `/api/v1/authn/factors/${factor.id}/lifecycle/activate`, 'activate'),
      prev: link(c, '/api/v1/authn/previous'),
      cancel: cancelLink(c),
    },
  };
}

export async function mfaRequired(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
): Promise<AuthnTransaction> {
  return {
    status: 'MFA_REQUIRED',
    stateToken,
    expiresAt: t.expiresAt.toISOString(),
    _embedded: {
      user: userJson(user),
      factors: await factorsInOrder(c, user.id),
    },
    _links: { cancel: cancelLink(c) },
  };
}

export function mfaChallenge(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
  factor: FactorRow,
): AuthnTransaction {
  return {
    status: 'MFA_CHALLENGE',
    stateToken,
    expiresAt: t.expiresAt.toISOString(),
    factorResult: 'CHALLENGE',
    _embedded: { user: userJson(user), factor: factorJson(c, factor) },
    _links: {
      next: link(c, `/api/v1/authn/factors/${factor.id}/verify`, 'verify'),
      prev: link(c, '/api/v1/authn/previous'),
      cancel: cancelLink(c),
      resend: [link(c, `/api/v1/authn/factors/${factor.id}/verify/resend`, factor.factorType)],
    },
  };
}

/** A passkey's challenge: any of the customer's passkeys may answer it (`options.allowCredentials`). */
export function webauthnChallenge(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
  factor: AuthenticatorRow,
  options: Awaited<ReturnType<typeof authenticationOptions>>,
): AuthnTransaction {
  const next = link(c, `/api/v1/authn/factors/${factor.id}/verify`, 'verify');
  return {
    status: 'MFA_CHALLENGE',
    stateToken,
    expiresAt: t.expiresAt.toISOString(),
    factorResult: 'CHALLENGE',
    _embedded: {
      user: userJson(user),
      factor: {
        ...appFactorJson(c, factor),
        factorType: 'webauthn',
        _embedded: {
          challenge: {
            challenge: options.challenge,
            userVerification: options.userVerification ?? 'required',
            rpId: options.rpId ?? c.rp.rpId,
            timeout: options.timeout ?? 0,
            allowCredentials: (options.allowCredentials ?? []).map((d) => ({
              id: d.id,
              type: 'public-key' as const,
              ...(d.transports ? { transports: [...d.transports] } : {}),
            })),
          },
        },
      },
    },
    _links: { next, prev: link(c, '/api/v1/authn/previous'), cancel: cancelLink(c) },
  };
}

export async function passwordReset(
  c: AuthnContext,
  stateToken: string,
  t: TransactionRow,
  user: UserRow,
): Promise<AuthnTransaction> {
  return {
    status: 'PASSWORD_RESET',
    stateToken,
    expiresAt: t.expiresAt.toISOString(),
    recoveryType: t.kind === 'activation' ? 'ACCOUNT_ACTIVATION' : 'PASSWORD',
    _embedded: { user: userJson(user), policy: oktaPasswordPolicy(await c.passwordRules()) },
    _links: {
      next: link(c, '/api/v1/authn/credentials/reset_password', 'resetPassword'),
      cancel: cancelLink(c),
    },
  };
}
