import { postAuditEventCall } from '@portal/contracts/eventlog';
import {
  authnCall,
  cancelCall,
  recoveryTokenCall,
  resetPasswordCall,
  type AuthnTransaction,
} from '@portal/contracts/identity';
import { requestPasswordResetCall, startRegistrationCall } from '@portal/contracts/registration';
import { endCurrentSessionCall } from '@portal/contracts/session';
import { testPageInit } from '../content-fixtures';
import { fakeApi, fakeCall } from './fake-api';

/*
 * The registration and password journeys on the fake API: registration and the reset-link request answer
 * OK; an activation token (authn {token}) and a recovery token each open a PASSWORD_RESET transaction
 * (`state-activation`, `state-recovery`) for Eleanor; setting the password moves that transaction to
 * MFA_REQUIRED with her one factor. A test answers a call otherwise with its own fakeCall after this.
 */

const orgUrl = testPageInit.identity.orgUrl;
/** A transaction link to a call of the identity contract. */
const link = (path: string) => ({ href: `${orgUrl}${path}`, hints: { allow: ['POST'] } });
const inTenMinutes = () => new Date(Date.now() + 10 * 60_000).toISOString();
const eleanor = {
  id: '00u-eleanor',
  passwordChanged: null,
  profile: {
    login: 'eleanor.hughes@example.co.uk',
    firstName: 'Eleanor',
    lastName: 'Hughes',
    locale: 'en_GB',
    timeZone: 'Europe/London',
  },
};

function passwordResetTx(
  stateToken: string,
  recoveryType: 'ACCOUNT_ACTIVATION' | 'PASSWORD',
): AuthnTransaction {
  return {
    status: 'PASSWORD_RESET',
    stateToken,
    expiresAt: inTenMinutes(),
    recoveryType,
    _embedded: {
      user: eleanor,
      policy: {
        expiration: { passwordExpireDays: 0 },
        complexity: {
          minLength: 12,
          maxLength: 128,
          minLowerCase: 0,
          minUpperCase: 0,
          minNumber: 0,
          minSymbol: 0,
          excludeUsername: true,
          excludeWhitespace: true,
          dictionary: { common: { exclude: true } },
        },
        age: { minAgeMinutes: 0, historyCount: 0 },
      },
    },
    _links: {
      next: link(resetPasswordCall.path),
      cancel: link(cancelCall.path),
    },
  };
}

function mfaRequiredTx(stateToken: string): AuthnTransaction {
  return {
    status: 'MFA_REQUIRED',
    stateToken,
    expiresAt: inTenMinutes(),
    _embedded: {
      user: eleanor,
      factors: [
        {
          id: 'sms-eleanor',
          factorType: 'sms',
          provider: 'OKTA',
          vendorName: 'OKTA',
          profile: { phoneNumber: '+44 XXXX XXX321' },
        },
      ],
    },
    _links: { cancel: link(cancelCall.path) },
  };
}

export function registrationScenario(): void {
  fakeApi.use(
    fakeCall(postAuditEventCall, () => ({ status: 202, body: { accepted: true } })),
    fakeCall(startRegistrationCall, () => ({ status: 200, body: { status: 'OK' } })),
    fakeCall(requestPasswordResetCall, () => ({ status: 200, body: { status: 'OK' } })),
    fakeCall(authnCall, () => ({
      status: 200,
      body: passwordResetTx('state-activation', 'ACCOUNT_ACTIVATION'),
    })),
    fakeCall(recoveryTokenCall, () => ({ status: 200, body: passwordResetTx('state-recovery', 'PASSWORD') })),
    fakeCall(resetPasswordCall, ({ body }) => ({ status: 200, body: mfaRequiredTx(body.stateToken) })),
    fakeCall(cancelCall, () => ({ status: 200, body: { status: 'UNAUTHENTICATED' } })),
    fakeCall(endCurrentSessionCall, () => ({ status: 204, body: undefined })),
  );
}
