import type { PasskeyOffer } from '@portal/contracts/passkey-offer';
import type { PasskeyCreationOptions, PasskeyRegistrationResponse } from '@portal/contracts/passkeys';
import type { BackupCodes, SignInMethod, TotpEnrolment } from '@portal/contracts/sign-in-methods';
import type { Queryable } from '../../../platform/db';
import type { RequestMeta } from '../authn/context';
import type { UserRow, UserStatus } from '../identity.repository';

export interface IdentityUser {
  id: string;
  customerId: string;
  login: string;
  status: UserStatus;
  firstName: string;
  lastName: string;
}

/** A customer's second factor as other modules see it: the number is always masked. */
interface IdentityFactor {
  id: string;
  factorType: 'sms' | 'call';
  /** Masked to the last 3 digits. */
  phoneNumber: string;
  isMobile: boolean;
  /** 6 for a mobile number, 5 for a landline. */
  codeLength: 5 | 6;
}

/** The new password breaks a rule; `reason` is the sentence to show the customer. */
export class PasswordPolicyError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The outcome of changePasswordWithStepUp; `reason` is the sentence to show the customer. */
export type StepUpPasswordChange =
  | { ok: true; changedAt: Date }
  | { ok: false; refused: 'code' | 'current-password' | 'new-password'; reason: string };

/** The outcome of confirmContactChange; `reason` is the sentence to show the customer. */
export type ContactChangeOutcome =
  | { ok: true; previous: string | null; value: string; at: Date }
  | { ok: false; refused: 'code' | 'in-use' | 'locked'; reason: string };

/** The outcome of closeAccount; `reason` is the sentence to show the customer. */
export type AccountClosing = { ok: true; at: Date; login: string } | { ok: false; reason: string };

/** A second factor's kind as the contact centre's console names it. */
export type StaffFactorKind = 'text' | 'call' | 'authenticator-app' | 'passkey' | 'backup-codes';

/** An online account as the contact centre sees it (issue 41 point 4): no secret, numbers masked. */
export interface AccountForStaff {
  status: UserStatus;
  /** Until when it is locked, while it is; else null. */
  lockedUntil: Date | null;
  lastSignInAt: Date | null;
  /** Not yet activated: when the activation link was last sent. */
  activationSentAt: Date | null;
  /** By kind: text and call one per number (masked), the others counted (active ones only). */
  factors: Array<{ kind: StaffFactorKind; destination?: string; count: number; addedAt: Date | null }>;
}

/** The outcome of changeLoginForCustomer. */
export type LoginChangeOutcome =
  | { ok: true; previous: string; value: string; at: Date }
  | { ok: false; refused: 'no-account' | 'same' | 'in-use' };

/** What the registration module needs to start an activation. */
interface ActivationRequest {
  customerId: string;
  firstName: string;
  lastName: string;
  mobileNumber: string | null;
  landlineNumber: string | null;
  /** The address the customer registers with; it becomes their sign-in name. */
  email: string;
}

/**
 * The identity module's service for other modules (ctx.services.identity). Call these outside any open
 * database transaction unless a `tx` parameter is offered.
 */
export interface IdentityService {
  /** Atomic single use of a sessionToken from a SUCCESS answer (5 minutes); null when unknown, used or expired. */
  consumeSessionToken(
    token: string,
  ): Promise<{ userId: string; customerId: string; login: string; amr: string[] } | null>;
  getUser(userId: string): Promise<IdentityUser | null>;
  /**
   * The sign-in accounts of a customer (one at most), read in the caller's transaction: the OpenID
   * provider's rows of a customer being erased are found by them (the oidc module's erasure).
   */
  accountIdsOf(q: Queryable, customerId: string): Promise<string[]>;
  /**
   * For the demo data only (db/demo/): an ACTIVE account made without registering, with its password and
   * factors for its numbers; left alone when the customer has one.
   */
  createSeededAccount(account: {
    customerId: string;
    login: string;
    password: string;
    firstName: string;
    lastName: string;
    phoneNumbers: Array<string | null>;
    registeredAt: Date;
  }): Promise<void>;
  /** The customer's online account, or null; read in `tx` when given (the caller's transaction). */
  getUserByCustomerId(customerId: string, tx?: Queryable): Promise<IdentityUser | null>;
  /** When the customer last set their password; null without an account or password. */
  getPasswordLastUpdated(customerId: string): Promise<Date | null>;
  /**
   * Checks the customer's current password (profile changes). A wrong one counts towards the account's
   * lockout, like a failed sign-in; a locked account always answers false.
   */
  verifyPassword(customerId: string, password: string, meta?: RequestMeta): Promise<boolean>;
  /**
   * Sets a new password after the same rules as registration and reset (settings, no spaces, not common,
   * not the email's local part, not the current one). Throws PasswordPolicyError with the reason, or 404.
   */
  changePassword(customerId: string, newPassword: string, tx?: Queryable, meta?: RequestMeta): Promise<void>;
  /** The customer's second factors (masked), sms first. Empty without an account. */
  getFactors(customerId: string): Promise<IdentityFactor[]>;
  /**
   * Sends a one-time code for a profile change by text (sms) or voice call (call: the landline when there
   * is one, else the mobile). Same rules as sign-in codes. Throws HttpError 404 (no such factor or
   * account), 429 with Retry-After (too soon, too many, or account locked), 503 with Retry-After (not delivered).
   */
  sendStepUpCode(
    customerId: string,
    method: 'sms' | 'call',
    meta?: RequestMeta,
  ): Promise<{ expiresAt: Date; codeLength: 5 | 6; phoneNumber: string; factorType: 'sms' | 'call' }>;
  /**
   * The password change guarded by the code from sendStepUpCode, in one database transaction that holds
   * the step-up. A wrong, expired or used code uses one of the code's attempts and counts towards the
   * lockout (`code`). With the right code, a wrong current password counts towards the lockout
   * (`current-password`) and a new password the rules refuse (as changePassword's) is `new-password`; the
   * code stays live for another try in both cases. Only a change uses the code up, together with the new
   * password, the audit rows and what `alongside` writes in the same transaction (it may throw to undo it
   * all). Of two changes with one code at once, one changes and the other is refused as `code`.
   * With `codeFrom: 'app'` the code is the customer's authenticator app's, checked as at sign-in
   * (accepted once, drift, a wrong one counted towards the lockout) after the passwords, so a refused
   * password leaves it unused; no step-up transaction is involved.
   */
  changePasswordWithStepUp(
    customerId: string,
    change: {
      passCode: string;
      currentPassword: string;
      newPassword: string;
      codeFrom?: 'sent' | 'app';
    },
    alongside: (tx: Queryable) => Promise<void>,
    meta?: RequestMeta,
  ): Promise<StepUpPasswordChange>;

  /**
   * Issue 26: sends a 6-digit code to a new sign-in email address (and customer email) or mobile number
   * (5 minutes; a new request kills the earlier one; the send limits of other codes). An email address
   * another account or customer record has gets the same answer, but that address is sent a notice
   * instead of a code, so no code can confirm it (`takenByAnotherCustomer`: the caller has asked the
   * customer records, which this module does not read). Throws HttpError 400 (fieldErrors: not a UK
   * mobile, the current address or number), 404 (no active account), 429 with Retry-After (too soon, too
   * many, locked), 503 with Retry-After (the message could not be sent).
   */
  startContactChange(
    customerId: string,
    change: { kind: 'email' | 'mobile'; value: string; takenByAnotherCustomer?: boolean },
    meta?: RequestMeta,
  ): Promise<{ expiresAt: Date; codeLength: 6 }>;
  /**
   * Confirms the change with its code, in one transaction: the sign-in name becomes the new email, or the
   * text (and mobile call) factor moves to the new number (is created when there was none), with what
   * `alongside` writes (it may throw to undo it all). A wrong, expired or used code uses one of its 5
   * tries and counts towards the lockout. Throws HttpError 404 (no active account), 429 (locked).
   */
  confirmContactChange(
    customerId: string,
    kind: 'email' | 'mobile',
    passCode: string,
    alongside: (tx: Queryable, change: { previous: string | null; value: string; at: Date }) => Promise<void>,
    meta?: RequestMeta,
  ): Promise<ContactChangeOutcome>;
  /**
   * Closes the online account with the code from sendStepUpCode, in one transaction: `alongside` runs
   * first (ending the sessions, the audit row), then the account is deleted with its password, factors,
   * authenticators, passkeys, backup codes, codes and tokens. A wrong code counts as at changePasswordWithStepUp.
   * Throws HttpError 404 (no active account), 429 (locked).
   */
  closeAccount(
    customerId: string,
    passCode: string,
    alongside: (tx: Queryable, account: { userId: string; login: string }) => Promise<void>,
    meta?: RequestMeta,
  ): Promise<AccountClosing>;

  /** The customer's sign-in methods after the password (phones masked). 404 without an active account. */
  listSignInMethods(customerId: string): Promise<SignInMethod[]>;
  /** Starts setting up an authenticator app (PENDING_ACTIVATION): the key and otpauth URI, shown once. */
  enrolTotp(customerId: string, meta?: RequestMeta): Promise<TotpEnrolment>;
  /**
   * Confirms the app with a first code; it replaces an earlier app. Throws HttpError 400 MFA_CODE_INVALID
   * (counted towards the lockout), 404 (not this customer's), 429 (account locked).
   */
  activateTotp(
    customerId: string,
    factorId: string,
    passCode: string,
    meta?: RequestMeta,
  ): Promise<SignInMethod>;
  /** Options for the browser to create a passkey (a challenge for this customer, 5 minutes, single use). */
  passkeyOptions(customerId: string): Promise<PasskeyCreationOptions>;
  /**
   * Adds the passkey the browser created over passkeyOptions' challenge, named `name`; emails the customer.
   * Throws HttpError 400 PASSKEY_INVALID when it does not check out or is registered already.
   */
  registerPasskey(
    customerId: string,
    name: string,
    credential: PasskeyRegistrationResponse,
    meta?: RequestMeta,
  ): Promise<SignInMethod>;
  /** Renames one of the customer's passkeys (404 for anything else). */
  renamePasskey(
    customerId: string,
    factorId: string,
    name: string,
    meta?: RequestMeta,
  ): Promise<SignInMethod>;
  /** Whether to offer setting up a passkey now (a new account, or 30 days after a "not now"). */
  passkeyOffer(customerId: string): Promise<PasskeyOffer>;
  /** The customer's "not now" to the passkey offer: not due again for 30 days. */
  declinePasskeyOffer(customerId: string, meta?: RequestMeta): Promise<PasskeyOffer>;
  /** Removes the app, the backup codes or a passkey (404 for anything else). */
  removeSignInMethod(customerId: string, factorId: string, meta?: RequestMeta): Promise<void>;
  /** Ten new backup codes, answered this once; earlier codes stop working. */
  createBackupCodes(customerId: string, meta?: RequestMeta): Promise<BackupCodes>;

  /**
   * Registration: creates or refreshes the customer's not-yet-active account with `email` as its sign-in
   * name and emails an activation link (24 hours; voids older links). When the customer, or the owner of
   * that address, already has an active account, emails that account's address an "already registered"
   * reminder instead. 'no-factors' when the record has no phone number to send codes to.
   */
  startActivation(
    request: ActivationRequest,
    meta?: RequestMeta,
  ): Promise<{ outcome: 'activation'; userId: string } | { outcome: 'reminder' } | { outcome: 'no-factors' }>;
  /**
   * Forgotten password: emails a reset link (60 minutes) when an account has that sign-in email (an
   * activation link if it was never activated), at most 3 an hour per account. Silent otherwise.
   */
  requestPasswordReset(email: string, meta?: RequestMeta): Promise<void>;
  /* The contact centre acting for a customer (issue 41): meta.agent names the staff member and the reason. */

  /** The customer's online account as the contact centre sees it, or null when they have none. */
  accountForStaff(customerId: string): Promise<AccountForStaff | null>;
  /** The customer whose account signs in with that email (any letter case), or null. */
  customerIdOfLogin(email: string): Promise<string | null>;
  /** Ends the lockout of an active account now (audit `identity.unlock`), as the emailed link does. */
  unlockForCustomer(customerId: string, meta: RequestMeta): Promise<'unlocked' | 'not-locked' | 'no-account'>;
  /**
   * Removes the active authenticator app, passkeys and backup codes asked for, each audited and emailed
   * as the customer's own removal is; `removed` 0 when there was none (or no active account).
   */
  removeFactorsForCustomer(
    customerId: string,
    kinds: ReadonlyArray<'authenticator-app' | 'passkeys' | 'backup-codes'>,
    meta: RequestMeta,
  ): Promise<{ removed: number }>;
  /**
   * Changes the sign-in email of an active account without a code, in one transaction with what
   * `alongside` writes (it may throw to undo it all). Refused when there is no active account, the
   * address is the current one, or another account signs in with it.
   */
  changeLoginForCustomer(
    customerId: string,
    email: string,
    alongside: (tx: Queryable, change: { previous: string; value: string; at: Date }) => Promise<void>,
  ): Promise<LoginChangeOutcome>;

  /** The user of an activation transaction that reached SUCCESS, while its stateToken lives; else null. */
  getFinishedActivation(
    userId: string,
    stateToken: string,
  ): Promise<{ userId: string; customerId: string; login: string } | null>;
}

export const publicUser = (u: UserRow): IdentityUser => ({
  id: u.id,
  customerId: u.customerId,
  login: u.login,
  status: u.status,
  firstName: u.firstName,
  lastName: u.lastName,
});
