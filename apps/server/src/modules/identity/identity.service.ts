import type { IdentityContext } from './context';
import { accountIdsOf } from './erasure';
import { createSeededAccount } from './service/seeded-account';
import { createAuthn, type Authn } from './authn.service';
import { padded } from './authn/timing';
import { getFinishedActivation, startActivation } from './service/activation';
import {
  accountForStaff,
  changeLoginForCustomer,
  customerIdOfLogin,
  removeFactorsForCustomer,
  unlockForCustomer,
} from './service/agent';
import {
  activateTotp,
  createBackupCodes,
  enrolTotp,
  listSignInMethods,
  removeSignInMethod,
} from './service/authenticators';
import { closeAccount, confirmContactChange, startContactChange } from './service/contact-change';
import { identityServiceContext, type IdentityServiceContext } from './service/context';
import { changePassword, verifyPassword } from './service/password-change';
import {
  declinePasskeyOffer,
  passkeyOffer,
  passkeyOptions,
  registerPasskey,
  renamePasskey,
} from './service/passkeys';
import { requestPasswordReset } from './service/password-reset';
import { changePasswordWithStepUp, getFactors, sendStepUpCode } from './service/step-up';
import type { IdentityService } from './service/types';
import { consumeSessionToken, getPasswordLastUpdated, getUser, getUserByCustomerId } from './service/users';

export type { RequestMeta } from './authn.service';
export { factorsForNumbers } from './service/factors';
export { PasswordPolicyError, type IdentityService } from './service/types';

/**
 * The identity module's service for other modules (ctx.services.identity), one function per step in
 * service/ as the authn transaction's are in authn/: who an account is (users), the profile's password
 * (password-change, step-up), registration's activation and the forgotten-password link, each given the
 * same small context.
 */
export function createIdentityService(
  ctx: IdentityContext,
  authn: Authn = createAuthn(ctx),
): IdentityService {
  const c = identityServiceContext(ctx, authn);
  const step =
    <A extends unknown[], R>(fn: (c: IdentityServiceContext, ...args: A) => R) =>
    (...args: A): R =>
      fn(c, ...args);
  return {
    consumeSessionToken: step(consumeSessionToken),
    getUser: step(getUser),
    getUserByCustomerId: step(getUserByCustomerId),
    getPasswordLastUpdated: step(getPasswordLastUpdated),
    verifyPassword: step(verifyPassword),
    changePassword: step(changePassword),
    getFactors: step(getFactors),
    sendStepUpCode: step(sendStepUpCode),
    changePasswordWithStepUp: step(changePasswordWithStepUp),
    listSignInMethods: step(listSignInMethods),
    enrolTotp: step(enrolTotp),
    activateTotp: step(activateTotp),
    removeSignInMethod: step(removeSignInMethod),
    createBackupCodes: step(createBackupCodes),
    passkeyOptions: step(passkeyOptions),
    registerPasskey: step(registerPasskey),
    renamePasskey: step(renamePasskey),
    // Same answer and, padded, about the same time whether or not another account has the address.
    startContactChange: padded(step(startContactChange)),
    confirmContactChange: step(confirmContactChange),
    closeAccount: step(closeAccount),
    passkeyOffer: step(passkeyOffer),
    declinePasskeyOffer: step(declinePasskeyOffer),
    // Same answer and, padded, the same time whether or not an account has the address.
    startActivation: padded(step(startActivation)),
    requestPasswordReset: padded(step(requestPasswordReset)),
    getFinishedActivation: step(getFinishedActivation),
    accountForStaff: step(accountForStaff),
    customerIdOfLogin: step(customerIdOfLogin),
    unlockForCustomer: step(unlockForCustomer),
    removeFactorsForCustomer: step(removeFactorsForCustomer),
    changeLoginForCustomer: step(changeLoginForCustomer),
    accountIdsOf,
    createSeededAccount: step(createSeededAccount),
  };
}
