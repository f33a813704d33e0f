/** Every limit and lifetime of the identity rules, in one place (docs/decisions/004). */
export const identityLimits = {
  stateTokenMs: 10 * 60_000,
  sessionTokenMs: 5 * 60_000,
  codeMs: 5 * 60_000,
  mobileCodeAttempts: 5,
  landlineCodeAttempts: 3,
  resendIntervalMs: 30_000,
  sendsPerTransaction: 5,
  sendsPerAccountPerHour: 10,
  activationTokenMs: 24 * 60 * 60_000,
  recoveryTokenMs: 60 * 60_000,
  resetEmailsPerAccountPerHour: 3,
  lockoutThreshold: 10,
  lockoutMs: 30 * 60_000,
  authnPerUsernamePerSecond: 4,
  /** Failed primary authentications per client address an hour, whatever the usernames: no spraying. */
  signInFailuresPerAddressPerHour: 30,
  /** Codes sent (texts, calls) per client address an hour, whatever the accounts. */
  codeSendsPerAddressPerHour: 30,
  /** Emailed links (forgotten password, unlock) asked for per client address an hour. */
  emailLinksPerAddressPerHour: 20,
  /** Passkey sign-in challenges per client address an hour (the sign-in page asks one per visit). */
  passkeyOptionsPerAddressPerHour: 120,
  unlockTokenMs: 60 * 60_000,
  unlockEmailsPerAccountPerHour: 3,
} as const;
