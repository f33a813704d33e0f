import type { AuthnTransaction, OktaFactor } from '@portal/contracts';
import { listFactors, type FactorRow, type TransactionRow, type UserRow } from '../identity.repository';
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
      factors: (await listFactors(c.db, user.id)).map((f) => factorJson(c, f)),
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
