/**
 * Event ids of the audit events the registration, password and preferences journeys record (the sign-in
 * steps' ids live with them in session/auth-audit.ts). Stable names: reports are built on them.
 */
export const auditEventIds = {
  /** Registration details sent: success is status OK (an email is on its way). */
  registration: 'Registration',
  /** The activation link's token was checked. */
  activation: 'AccountActivation',
  /** Registration completed after activation (identity user id and state token). */
  registrationComplete: 'RegistrationComplete',
  /** A password was chosen on the activation page (takes effect with the second factor). */
  passwordSet: 'PasswordSet',
  /** A reset link was asked for. */
  passwordResetRequest: 'PasswordResetRequest',
  /** The reset link's token was checked. */
  passwordResetToken: 'PasswordResetTokenVerify',
  /** A new password was chosen on the reset page. */
  passwordReset: 'PasswordReset',
  /** Marketing preferences saved from the account area. */
  marketingPreferences: 'MarketingPreferencesUpdate',
  /** Marketing preferences saved at the first sign-in of a new registration (spec: the on-registration variant). */
  marketingPreferencesOnRegistration: 'MarketingPreferencesUpdateOnRegistration',
} as const;
