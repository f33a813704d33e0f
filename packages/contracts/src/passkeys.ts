import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerIdValue, emptyBody } from './common';
import { authnTransaction, oktaError } from './identity';
import { signInMethod } from './sign-in-methods';

/**
 * Passkeys (WebAuthn, docs/decisions/024): adding, naming and removing them from the profile (portal
 * service, bearer token), and signing in with one alone (identity service, no token). The options and
 * credentials are the JSON forms of the WebAuthn Level 3 spec (PublicKeyCredential*OptionsJSON,
 * RegistrationResponseJSON, AuthenticationResponseJSON) that @simplewebauthn/browser reads and writes;
 * binary fields are base64url.
 */

const base64url = (max: number) =>
  z.string().check(z.maxLength(max), z.regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url'));

const attachment = z.optional(z.enum(['platform', 'cross-platform']));

const credentialDescriptor = z.object({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.optional(z.array(z.string())),
});

/** What navigator.credentials.create() needs (startRegistration's optionsJSON); extra fields pass through. */
export const passkeyCreationOptions = named(
  z.looseObject({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.optional(z.string()) }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
    timeout: z.optional(z.number()),
    excludeCredentials: z.optional(z.array(credentialDescriptor)),
    authenticatorSelection: z.optional(
      z.object({
        authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
        residentKey: z.optional(z.enum(['discouraged', 'preferred', 'required'])),
        requireResidentKey: z.optional(z.boolean()),
        userVerification: z.optional(z.enum(['discouraged', 'preferred', 'required'])),
      }),
    ),
    attestation: z.optional(z.enum(['none', 'indirect', 'direct', 'enterprise'])),
  }),
  'PasskeyCreationOptions',
);
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptions>;

/** What navigator.credentials.get() needs (startAuthentication's optionsJSON). */
export const passkeyRequestOptions = named(
  z.looseObject({
    challenge: z.string(),
    rpId: z.optional(z.string()),
    timeout: z.optional(z.number()),
    userVerification: z.optional(z.enum(['discouraged', 'preferred', 'required'])),
    allowCredentials: z.optional(z.array(credentialDescriptor)),
  }),
  'PasskeyRequestOptions',
);
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptions>;

/** A new credential as the browser answers it (startRegistration's result). Unknown fields are dropped. */
export const passkeyRegistrationResponse = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(10_000),
    attestationObject: base64url(100_000),
    // As the browser names them; the server keeps those it knows (ble, cable, hybrid, internal, nfc, smart-card, usb).
    transports: z.optional(z.array(z.string().check(z.maxLength(20))).check(z.maxLength(10))),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: z.optional(z.record(z.string(), z.unknown())),
});
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponse>;

/** An assertion as the browser answers it (startAuthentication's result). Unknown fields are dropped. */
export const passkeyAuthenticationResponse = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(10_000),
    authenticatorData: base64url(10_000),
    signature: base64url(2000),
    userHandle: z.optional(base64url(200)),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults: z.optional(z.record(z.string(), z.unknown())),
});
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponse>;

const passkeyName = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Enter a name for the passkey'),
    z.maxLength(60, 'The name must be 60 characters or fewer'),
  );

const passkeyId = z.string().check(z.regex(/^[A-Za-z0-9]{1,40}$/, 'Not a sign-in method id'));

export const passkeyOptionsCall = defineCall({
  id: 'portal.passkeyOptions',
  summary:
    "Starts adding a passkey: the options for the browser (a single-use challenge for 5 minutes, user verification required, a discoverable credential preferred, the customer's passkeys excluded). Takes no body. 403 REAUTHENTICATION_REQUIRED unless this session signed in or confirmed its password (portal.confirmPassword) within REAUTHENTICATION_MINUTES.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-methods/:customerId/passkeys/options',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: emptyBody,
  responses: { 200: passkeyCreationOptions, ...customerCallErrors, 403: errorEnvelope },
});

export const registerPasskeyCall = defineCall({
  id: 'portal.passkeyRegister',
  summary:
    "Adds the passkey the browser created from portal.passkeyOptions' challenge, under the customer's name for it; an email tells the customer. 400 PASSKEY_INVALID when the browser's answer does not check out (wrong, used or expired challenge, another site, no user verification) or the passkey is already registered.",
  service: 'portal',
  method: 'POST',
  path: '/api/v1/sign-in-methods/:customerId/passkeys',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  body: z.strictObject({ name: passkeyName, credential: passkeyRegistrationResponse }),
  responses: { 200: signInMethod, ...customerCallErrors },
});

export const renamePasskeyCall = defineCall({
  id: 'portal.passkeyRename',
  summary: "Renames one of the customer's passkeys. 404 for another customer's or an unknown id.",
  service: 'portal',
  method: 'PATCH',
  path: '/api/v1/sign-in-methods/:customerId/passkeys/:factorId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, factorId: passkeyId }),
  body: z.strictObject({ name: passkeyName }),
  responses: { 200: signInMethod, ...customerCallErrors },
});

const identityErrors = { 400: oktaError, 401: oktaError, 429: oktaError };

export const passkeySignInOptionsCall = defineCall({
  id: 'identity.passkeyOptions',
  summary:
    'Sign in with a passkey alone: a single-use challenge (5 minutes) with no allowCredentials, so the browser offers the discoverable passkeys it holds for this site (also for autofill). 429 E0000047 above 120 an hour per client address.',
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/passkey/options',
  auth: false,
  body: emptyBody,
  responses: { 200: passkeyRequestOptions, ...identityErrors },
});

export const passkeySignInCall = defineCall({
  id: 'identity.passkeyVerify',
  summary:
    "Sign in with a passkey alone: the browser's assertion over identity.passkeyOptions' challenge. SUCCESS with a one-time sessionToken, as a verified second factor gives; 401 E0000004 alike for an unknown passkey, a bad, replayed or expired assertion, a locked or inactive account. Failures count towards the client address's sign-in failures (429 E0000047 above 30 an hour).",
  service: 'identity',
  method: 'POST',
  path: '/api/v1/authn/passkey/verify',
  auth: false,
  body: z.object({ credential: passkeyAuthenticationResponse }),
  responses: { 200: authnTransaction, ...identityErrors },
});
