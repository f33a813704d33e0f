import { z } from 'zod/mini';
import { defineCall, named } from './call';
import { oktaError } from './okta-error';

/**
 * Identity service: Okta's classic Authentication API (same paths, shapes, statuses and error envelope),
 * so the portal can be pointed at a real Okta org instead. Request schemas strip unknown fields, as Okta
 * does (its SDKs send extra `options` and `context`); responses strip unknown fields too.
 *
 * The spec's own shapes (sign-in result, MFA verify result) are derived from these by `toSignInResult`
 * and `toMfaVerifyResult` below; docs/decisions/004 records the mapping.
 */

// Okta's error envelope and codes live apart (okta-error.ts), so a call that needs only them (the
// provider session's, on every signed-in page) does not load this module's transaction shapes.
export { oktaError, oktaErrorCodes, type OktaError } from './okta-error';

const isoInstant = z.iso.datetime({ offset: true });

export const oktaLink = z.object({
  name: z.optional(z.string()),
  href: z.url(),
  hints: z.object({ allow: z.array(z.string()) }),
});

export const factorTypes = ['sms', 'call'] as const;
export const factorType = z.enum(factorTypes);
export type FactorType = z.infer<typeof factorType>;

export const oktaFactor = named(
  z.object({
    id: z.string(),
    factorType,
    provider: z.literal('OKTA'),
    vendorName: z.literal('OKTA'),
    profile: z.object({
      /** Masked to the last 3 digits, e.g. "+44 XXXX XXX123". */
      phoneNumber: z.string(),
      /**
       * Our extension (absent from a real Okta org): on a `call` factor, true when the number called is a
       * mobile, so the code has 6 digits, not the 5 of a landline. Always false on `sms` factors.
       */
      landlineIsAMobile: z.optional(z.boolean()),
    }),
    _links: z.optional(z.object({ verify: oktaLink })),
  }),
  'OktaFactor',
);
export type OktaFactor = z.infer<typeof oktaFactor>;

/**
 * Second factors without a phone: an authenticator app (Okta's `token:software:totp`, provider GOOGLE:
 * any RFC 6238 app, as Okta names Google Authenticator-compatible apps), backup codes (`backup_code`,
 * provider CUSTOM: our extension, absent from Okta), both verified straight from MFA_REQUIRED with
 * passCode; and passkeys (Okta's `webauthn`, provider FIDO), one factor per passkey, verified with a
 * challenge (MFA_CHALLENGE) and then the assertion's fields.
 */
export const oktaAppFactor = named(
  z.object({
    id: z.string(),
    factorType: z.enum(['token:software:totp', 'backup_code', 'webauthn']),
    provider: z.enum(['GOOGLE', 'CUSTOM', 'FIDO']),
    vendorName: z.enum(['GOOGLE', 'CUSTOM', 'FIDO']),
    profile: z.object({
      /** The customer's name for it. */
      name: z.string(),
      /** backup_code only: how many unused codes are left. */
      codesLeft: z.optional(z.number().check(z.int(), z.minimum(0))),
      /** webauthn only: the passkey's credential id (base64url), as Okta's profile gives it. */
      credentialId: z.optional(z.string()),
    }),
    _links: z.optional(z.object({ verify: oktaLink })),
  }),
  'OktaAppFactor',
);
export type OktaAppFactor = z.infer<typeof oktaAppFactor>;

export const oktaUser = named(
  z.object({
    id: z.string(),
    passwordChanged: z.optional(z.nullable(isoInstant)),
    profile: z.object({
      login: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      locale: z.string(),
      timeZone: z.string(),
    }),
  }),
  'OktaUser',
);

/**
 * Okta's password policy object, from the site settings' globalPasswordRequirementsBlock. Each `min*`
 * count is 1 when that settings flag is on, else 0. `maxLength`, `excludeWhitespace` and `dictionary`
 * are the rules we always apply.
 */
export const oktaPasswordPolicy = named(
  z.object({
    expiration: z.object({ passwordExpireDays: z.number().check(z.int()) }),
    complexity: z.object({
      minLength: z.number().check(z.int()),
      maxLength: z.number().check(z.int()),
      minLowerCase: z.number().check(z.int()),
      minUpperCase: z.number().check(z.int()),
      minNumber: z.number().check(z.int()),
      minSymbol: z.number().check(z.int()),
      excludeUsername: z.boolean(),
      excludeWhitespace: z.boolean(),
      dictionary: z.object({ common: z.object({ exclude: z.boolean() }) }),
    }),
    age: z.object({ minAgeMinutes: z.number().check(z.int()), historyCount: z.number().check(z.int()) }),
  }),
  'OktaPasswordPolicy',
);
export type OktaPasswordPolicy = z.infer<typeof oktaPasswordPolicy>;

const passwordResetTx = z.object({
  status: z.literal('PASSWORD_RESET'),
  stateToken: z.string(),
  expiresAt: isoInstant,
  recoveryType: z.enum(['ACCOUNT_ACTIVATION', 'PASSWORD']),
  _embedded: z.object({ user: oktaUser, policy: oktaPasswordPolicy }),
  _links: z.object({ next: oktaLink, cancel: oktaLink }),
});

const mfaRequiredTx = z.object({
  status: z.literal('MFA_REQUIRED'),
  stateToken: z.string(),
  expiresAt: isoInstant,
  _embedded: z.object({
    user: oktaUser,
    /** The order is the server's: the factor last used to sign in first, else text first. */
    factors: z.array(z.union([oktaFactor, oktaAppFactor])),
  }),
  _links: z.object({ cancel: oktaLink }),
});

/**
 * A passkey's challenge (MFA_CHALLENGE of a webauthn factor), in the factor's `_embedded.challenge` as
 * Okta puts it; `allowCredentials` lists every passkey of the customer, so any of them may answer.
 */
export const webauthnChallengeFactor = named(
  z.object({
    ...oktaAppFactor.shape,
    factorType: z.literal('webauthn'),
    _embedded: z.object({
      challenge: z.object({
        challenge: z.string(),
        userVerification: z.string(),
        rpId: z.string(),
        timeout: z.number(),
        allowCredentials: z.array(
          z.object({
            id: z.string(),
            type: z.literal('public-key'),
            transports: z.optional(z.array(z.string())),
          }),
        ),
      }),
    }),
  }),
  'OktaWebauthnChallengeFactor',
);

const mfaChallengeTx = z.object({
  status: z.literal('MFA_CHALLENGE'),
  stateToken: z.string(),
  expiresAt: isoInstant,
  factorResult: z.literal('CHALLENGE'),
  _embedded: z.object({ user: oktaUser, factor: z.union([oktaFactor, webauthnChallengeFactor]) }),
  /** `resend` for a code sent by text or call; a passkey's challenge has none. */
  _links: z.object({
    next: oktaLink,
    prev: oktaLink,
    cancel: oktaLink,
    resend: z.optional(z.array(oktaLink)),
  }),
});

/**
 * A factor the customer may set up now (MFA_ENROLL), as Okta lists it: no id yet, `status: NOT_SETUP`,
 * `enrollment: REQUIRED` (one of them must be set up to sign in) and an `enroll` link. Only an
 * authenticator app here (decision 023): text and call numbers come from the customer record.
 */
export const oktaEnrollableFactor = named(
  z.object({
    factorType: z.literal('token:software:totp'),
    provider: z.literal('GOOGLE'),
    vendorName: z.literal('GOOGLE'),
    status: z.literal('NOT_SETUP'),
    enrollment: z.enum(['REQUIRED', 'OPTIONAL']),
    _links: z.object({ enroll: oktaLink }),
  }),
  'OktaEnrollableFactor',
);

const mfaEnrollTx = z.object({
  status: z.literal('MFA_ENROLL'),
  stateToken: z.string(),
  expiresAt: isoInstant,
  _embedded: z.object({ user: oktaUser, factors: z.array(oktaEnrollableFactor) }),
  _links: z.object({ cancel: oktaLink }),
});

/**
 * The authenticator app being set up (MFA_ENROLL_ACTIVATE), in Okta's shape: the shared secret for the
 * app (base32, 30-second steps), and a QR code of the otpauth:// URI as an inline PNG (a `data:` URL,
 * so no second request carries a secret-bearing address; decision 023).
 */
export const oktaEnrolFactor = named(
  z.object({
    id: z.string(),
    factorType: z.literal('token:software:totp'),
    provider: z.literal('GOOGLE'),
    vendorName: z.literal('GOOGLE'),
    status: z.literal('PENDING_ACTIVATION'),
    profile: z.object({ credentialId: z.string() }),
    _embedded: z.object({
      activation: z.object({
        timeStep: z.number().check(z.int()),
        sharedSecret: z.string(),
        encoding: z.literal('base32'),
        keyLength: z.number().check(z.int()),
        _links: z.optional(
          z.object({
            qrcode: z.object({
              href: z.string().check(z.startsWith('data:image/png;base64,')),
              type: z.literal('image/png'),
            }),
          }),
        ),
      }),
    }),
  }),
  'OktaEnrolFactor',
);

const mfaEnrollActivateTx = z.object({
  status: z.literal('MFA_ENROLL_ACTIVATE'),
  stateToken: z.string(),
  expiresAt: isoInstant,
  _embedded: z.object({ user: oktaUser, factor: oktaEnrolFactor }),
  /** `next` is named `activate` (the SDK's `tx.activate({passCode})`); `prev` goes back to MFA_ENROLL. */
  _links: z.object({ next: oktaLink, prev: oktaLink, cancel: oktaLink }),
});

const successTx = z.object({
  status: z.literal('SUCCESS'),
  /** One-time, 5 minutes: exchange it at the OpenID Connect authorize endpoint. */
  sessionToken: z.string(),
  expiresAt: isoInstant,
  _embedded: z.object({ user: oktaUser }),
});

/**
 * The answer to recovery/password (recoveryType PASSWORD) and recovery/unlock (UNLOCK): the same for every
 * username, whether or not an account exists (or is locked).
 */
const recoveryChallengeTx = z.object({
  status: z.literal('RECOVERY_CHALLENGE'),
  factorResult: z.literal('WAITING'),
  factorType: z.literal('EMAIL'),
  recoveryType: z.enum(['PASSWORD', 'UNLOCK']),
});

/**
 * The answer to cancel; and to recovery/token with an unlock token, with recoveryType UNLOCK: the account
 * is unlocked and nobody is signed in (Okta ends an unlock in SUCCESS without a sessionToken; here every
 * SUCCESS carries one, docs/decisions/004).
 */
const unauthenticatedTx = z.object({
  status: z.literal('UNAUTHENTICATED'),
  recoveryType: z.optional(z.literal('UNLOCK')),
});

export const authnTransaction = named(
  z.discriminatedUnion('status', [
    passwordResetTx,
    mfaRequiredTx,
    mfaChallengeTx,
    mfaEnrollTx,
    mfaEnrollActivateTx,
    successTx,
    recoveryChallengeTx,
    unauthenticatedTx,
  ]),
  'AuthnTransaction',
);
export type AuthnTransaction = z.infer<typeof authnTransaction>;
export type AuthnStatus = AuthnTransaction['status'];

export const primaryAuthBody = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'username is required'), z.maxLength(254)),
  // Long enough for any password we accept (128) with room; longer is refused before any hashing.
  password: z.string().check(z.minLength(1, 'password is required'), z.maxLength(1024)),
});
export const activationTokenBody = z.object({
  token: z.string().check(z.minLength(1, 'token is required'), z.maxLength(200)),
});
const stateToken = z.string().check(z.minLength(1, 'stateToken is required'), z.maxLength(200));
export const stateTokenBody = z.object({ stateToken });
/** {username, password}, {token} (activation) or {stateToken} alone (resume: the transaction as it stands). */
export const authnBody = z.union([primaryAuthBody, activationTokenBody, stateTokenBody]);
export type AuthnBody = z.infer<typeof authnBody>;

const base64url = (max: number) =>
  z.string().check(z.maxLength(max), z.regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url'));

export const factorVerifyBody = z.object({
  stateToken,
  /** Absent: send a code. Present: check it (any other text is simply a wrong code, as in Okta). */
  passCode: z.optional(z.string().check(z.maxLength(20))),
  /**
   * A passkey's assertion over the challenge of MFA_CHALLENGE, in Okta's names (base64url): clientData is
   * clientDataJSON, signatureData the signature. credentialId (ours) names which of the customer's
   * passkeys answered; without it, the factor of the path.
   */
  clientData: z.optional(base64url(10_000)),
  authenticatorData: z.optional(base64url(10_000)),
  signatureData: z.optional(base64url(2000)),
  credentialId: z.optional(base64url(1400)),
});
/** Okta's enrolment request; any other factorType or provider is refused with 400 E0000001. */
export const factorEnrollBody = z.object({
  stateToken,
  factorType: z.string().check(z.minLength(1, 'factorType is required'), z.maxLength(50)),
  provider: z.string().check(z.minLength(1, 'provider is required'), z.maxLength(50)),
});
export const factorActivateBody = z.object({
  stateToken,
  /** The app's first code; any other text is simply a wrong code, as in Okta. */
  passCode: z.optional(z.string().check(z.maxLength(20))),
});
export const resetPasswordBody = z.object({
  stateToken,
  newPassword: z.string().check(z.minLength(1, 'newPassword is required'), z.maxLength(1024)),
});
export const recoveryPasswordBody = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'username is required'), z.maxLength(254)),
  factorType: z.literal('EMAIL', { error: 'factorType must be EMAIL' }),
  relayState: z.optional(z.string().check(z.maxLength(2000))),
});
export const recoveryTokenBody = z.object({
  recoveryToken: z.string().check(z.minLength(1, 'recoveryToken is required'), z.maxLength(200)),
});
export const factorParams = z.object({
  factorId: z.string().check(z.regex(/^[A-Za-z0-9]{1,40}$/, 'Not a factor id')),
});

const errors = { 400: oktaError, 401: oktaError, 403: oktaError, 429: oktaError };

export const authnCall = defineCall({
  id: 'identity.authn',
  summary:
    'Primary authentication. {username, password}: MFA_REQUIRED, or MFA_ENROLL for a customer with no second factor they can use (no phone number, no app, passkey or backup code left), or 401 E0000004 alike for a wrong password and an unknown, locked or inactive user. {token} (activation token from the email): PASSWORD_RESET with recoveryType ACCOUNT_ACTIVATION. {stateToken} alone (resume, as the Okta SDK sends it): the transaction in its current state, or 401 E0000011 for an unknown, expired, finished or cancelled one. 429 E0000047 above 4 requests a second per username, or after 30 failed sign-ins an hour from the client address (whatever the usernames).',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn',
  auth: false,
  body: authnBody,
  responses: { 200: authnTransaction, ...errors },
});

export const factorVerifyCall = defineCall({
  id: 'identity.factorVerify',
  summary:
    "Without passCode: sends a code by text (sms) or voice call (call) and answers MFA_CHALLENGE; for a passkey (webauthn), MFA_CHALLENGE with a single-use challenge (5 minutes) in the factor's _embedded.challenge, then with clientData, authenticatorData and signatureData: SUCCESS, or 403 E0000068 for an assertion that does not check out (counted towards the lockout). With passCode: SUCCESS and a one-time sessionToken, or 403 E0000068 for a wrong, expired or used code. 401 E0000011 for an expired or unknown stateToken, 403 E0000079 in the wrong state, 404 E0000007 for another user's factor, 429 E0000047 when codes are asked for too often, 503 E0000009 with Retry-After when the text or call could not be sent.",
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/factors/:factorId/verify',
  auth: false,
  params: factorParams,
  body: factorVerifyBody,
  responses: { 200: authnTransaction, ...errors, 404: oktaError, 503: oktaError },
});

export const factorEnrollCall = defineCall({
  id: 'identity.factorEnroll',
  summary:
    "From MFA_ENROLL (a customer with no factor they can use): sets up an authenticator app ({factorType: 'token:software:totp', provider: 'GOOGLE'}) and answers MFA_ENROLL_ACTIVATE with the shared secret and a QR code; it counts only once its first code is accepted (lifecycle/activate). 400 E0000001 for any other factor, 401 E0000011 for an expired or unknown stateToken, 403 E0000079 in another state.",
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/factors',
  auth: false,
  body: factorEnrollBody,
  responses: { 200: authnTransaction, ...errors },
});

export const factorActivateCall = defineCall({
  id: 'identity.factorActivate',
  summary:
    "From MFA_ENROLL_ACTIVATE: the app's first code ({passCode}, one 30-second step of drift either way) makes it ACTIVE, emails the customer and answers SUCCESS with a one-time sessionToken, as after any second factor. 403 E0000068 for a wrong code (counted towards the lockout), 401 E0000011 for an expired or unknown stateToken, 403 E0000079 in another state, 404 E0000007 for a factor this transaction is not setting up.",
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/factors/:factorId/lifecycle/activate',
  auth: false,
  params: factorParams,
  body: factorActivateBody,
  responses: { 200: authnTransaction, ...errors, 404: oktaError },
});

export const factorResendCall = defineCall({
  id: 'identity.factorResend',
  summary:
    'Sends a new code for the challenged factor; the previous code stops working. At most one send per 30 seconds (429 E0000047 with Retry-After), 5 per transaction and 10 per account an hour; 503 E0000009 with Retry-After when it could not be sent.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/factors/:factorId/verify/resend',
  auth: false,
  params: factorParams,
  body: stateTokenBody,
  responses: { 200: authnTransaction, ...errors, 404: oktaError, 503: oktaError },
});

export const previousCall = defineCall({
  id: 'identity.previous',
  summary:
    'From MFA_CHALLENGE back to MFA_REQUIRED, to choose another factor; from MFA_ENROLL_ACTIVATE back to MFA_ENROLL (the app being set up is dropped).',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/previous',
  auth: false,
  body: stateTokenBody,
  responses: { 200: authnTransaction, ...errors },
});

export const resetPasswordCall = defineCall({
  id: 'identity.resetPassword',
  summary:
    'Sets the new password of an activation or recovery transaction (PASSWORD_RESET) and answers MFA_REQUIRED (MFA_ENROLL without a usable factor); the password takes effect when the code is verified. 403 E0000014 names the broken rule in errorCauses.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/credentials/reset_password',
  auth: false,
  body: resetPasswordBody,
  responses: { 200: authnTransaction, ...errors },
});

export const recoveryPasswordCall = defineCall({
  id: 'identity.recoveryPassword',
  summary:
    'Forgotten password by email: the same RECOVERY_CHALLENGE answer for every username; a reset link (60 minutes) is emailed when the account exists, at most 3 an hour per account. 429 E0000047 above 20 emailed-link requests (forgotten password and unlock) an hour per client address.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/recovery/password',
  auth: false,
  body: recoveryPasswordBody,
  responses: { 200: authnTransaction, ...errors },
});

export const recoveryTokenCall = defineCall({
  id: 'identity.recoveryToken',
  summary:
    'Exchanges the recovery token from the reset email for PASSWORD_RESET (recoveryType PASSWORD). The token from the unlock email unlocks the account and answers UNAUTHENTICATED with recoveryType UNLOCK (sign in next). 403 E0000105 for an unknown, expired, used or replaced token.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/recovery/token',
  auth: false,
  body: recoveryTokenBody,
  responses: { 200: authnTransaction, ...errors },
});

export const recoveryUnlockCall = defineCall({
  id: 'identity.recoveryUnlock',
  summary:
    'Self-service unlock by email: the same RECOVERY_CHALLENGE answer (recoveryType UNLOCK) for every username, after the same time; an unlock link (60 minutes, single use) is emailed only when the account exists and is locked, at most 3 an hour per account. The link leads to the sign-in page, which redeems it at recovery/token. 429 E0000047 above 20 emailed-link requests an hour per client address.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/recovery/unlock',
  auth: false,
  // Okta's body for unlock is the same as for recovery/password.
  body: recoveryPasswordBody,
  responses: { 200: authnTransaction, ...errors },
});

export const introspectCall = defineCall({
  id: 'identity.introspect',
  summary:
    'The transaction of a stateToken in its current state (MFA_REQUIRED, MFA_CHALLENGE, MFA_ENROLL, MFA_ENROLL_ACTIVATE or PASSWORD_RESET), changing nothing; 401 E0000011 for an unknown, expired, finished or cancelled one.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/introspect',
  auth: false,
  body: stateTokenBody,
  responses: { 200: authnTransaction, ...errors },
});

export const cancelCall = defineCall({
  id: 'identity.cancel',
  summary: 'Ends the transaction: its stateToken stops working. Answers UNAUTHENTICATED.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/cancel',
  auth: false,
  body: stateTokenBody,
  responses: { 200: authnTransaction, ...errors },
});

/* ---------------------------------------------------------------------------------------------------
 * The spec's identity shapes (access-and-session §3), derived from Okta's.
 * ------------------------------------------------------------------------------------------------- */

/** Session status values of the spec; provider statuses map onto the first three. */
export type SessionStatus = 'mfaRequired' | 'mfaChallenge' | 'success' | 'marketingPreferences' | 'loggedIn';

/** MFA_REQUIRED -> mfaRequired, MFA_CHALLENGE -> mfaChallenge, SUCCESS -> success; anything else unknown. */
export function sessionStatusOf(
  providerStatus: string,
): 'mfaRequired' | 'mfaChallenge' | 'success' | 'unknown' {
  switch (providerStatus) {
    case 'MFA_REQUIRED':
      return 'mfaRequired';
    case 'MFA_CHALLENGE':
      return 'mfaChallenge';
    case 'SUCCESS':
      return 'success';
    default:
      return 'unknown';
  }
}

/**
 * A way to finish signing in, as the SPA offers it: a code sent by text or call to a masked number, a code
 * from the authenticator app, one of the customer's backup codes (with how many are left), or a passkey
 * (one choice for all of them: the browser offers whichever of the customer's passkeys it holds).
 */
export const signInFactor = z.discriminatedUnion('type', [
  z.object({
    id: z.string(),
    type: factorType,
    phoneNumber: z.string(),
    /**
     * A call's line, when the provider says (our `landlineIsAMobile`; a real Okta org does not): a customer
     * whose mobile and landline end in the same digits is told which one each call goes to.
     */
    line: z.optional(z.enum(['mobile', 'landline'])),
  }),
  z.object({ id: z.string(), type: z.literal('totp') }),
  z.object({ id: z.string(), type: z.literal('backup_code'), codesLeft: z.number() }),
  z.object({ id: z.string(), type: z.literal('webauthn') }),
]);
export type SignInFactor = z.infer<typeof signInFactor>;
export type SignInFactorType = SignInFactor['type'];

/**
 * Sign-in result: status, stateToken, factors (id, type sms, call, totp or backup_code, phoneNumber or
 * codesLeft), sessionToken.
 */
export const signInResult = z.object({
  /** The provider status as sent (MFA_REQUIRED, SUCCESS, ...); sessionStatusOf maps it. */
  status: z.string(),
  stateToken: z.optional(z.string()),
  factors: z.array(signInFactor),
  sessionToken: z.optional(z.string()),
});
export type SignInResult = z.infer<typeof signInResult>;

/** MFA verify result: factorId, stateToken, status, phoneNumber, factorType, landlineIsAMobile. */
export const mfaVerifyResult = z.object({
  factorId: z.string(),
  stateToken: z.string(),
  status: z.string(),
  phoneNumber: z.string(),
  factorType,
  /** True when a `call` factor rings a mobile: the SPA then shows 6 code boxes instead of 5. */
  landlineIsAMobile: z.boolean(),
});
export type MfaVerifyResult = z.infer<typeof mfaVerifyResult>;

/** Flattens an Okta transaction into the spec's sign-in result. */
export function toSignInResult(tx: AuthnTransaction): SignInResult {
  const result: SignInResult = { status: tx.status, factors: [] };
  if ('stateToken' in tx) result.stateToken = tx.stateToken;
  if (tx.status === 'SUCCESS') result.sessionToken = tx.sessionToken;
  if (tx.status === 'MFA_REQUIRED') {
    // In the provider's order (the factor last used first). Passkeys once, where the first of them comes:
    // their challenge lets the browser use any of the customer's passkeys.
    let passkeyOffered = false;
    result.factors = tx._embedded.factors.flatMap((f): SignInFactor[] => {
      if (f.factorType === 'sms') return [{ id: f.id, type: 'sms', phoneNumber: f.profile.phoneNumber }];
      if (f.factorType === 'call') {
        const mobile = f.profile.landlineIsAMobile;
        return [
          {
            id: f.id,
            type: 'call',
            phoneNumber: f.profile.phoneNumber,
            ...(mobile === undefined ? {} : { line: mobile ? ('mobile' as const) : ('landline' as const) }),
          },
        ];
      }
      if (f.factorType === 'token:software:totp') return [{ id: f.id, type: 'totp' }];
      if (f.factorType === 'webauthn') {
        if (passkeyOffered) return [];
        passkeyOffered = true;
        return [{ id: f.id, type: 'webauthn' }];
      }
      const left = 'codesLeft' in f.profile ? (f.profile.codesLeft ?? 0) : 0;
      return left > 0 ? [{ id: f.id, type: 'backup_code', codesLeft: left }] : [];
    });
  }
  return result;
}

/** The spec's MFA verify result from an MFA_CHALLENGE answer; null for any other status. */
export function toMfaVerifyResult(tx: AuthnTransaction): MfaVerifyResult | null {
  if (tx.status !== 'MFA_CHALLENGE') return null;
  const factor = tx._embedded.factor;
  if (factor.factorType === 'webauthn') return null;
  return {
    factorId: factor.id,
    stateToken: tx.stateToken,
    status: tx.status,
    phoneNumber: factor.profile.phoneNumber,
    factorType: factor.factorType,
    landlineIsAMobile: factor.factorType === 'call' && factor.profile.landlineIsAMobile === true,
  };
}

/** Code boxes the challenge shows: 6 for a text or a call to a mobile, 5 for a call to a landline. */
export function codeLengthOf(result: Pick<MfaVerifyResult, 'factorType' | 'landlineIsAMobile'>): 5 | 6 {
  return result.factorType === 'sms' || result.landlineIsAMobile ? 6 : 5;
}
