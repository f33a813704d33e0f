import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { COSEALG } from '@simplewebauthn/server/helpers';
import type { PasskeyAuthenticationResponse, PasskeyRegistrationResponse } from '@portal/contracts/passkeys';
import type { PasskeyRow } from '../repository/passkeys';

/*
 * Passkeys (WebAuthn) with @simplewebauthn/server: it builds the options and checks attestations and
 * assertions (CBOR, COSE keys, signatures, counters); this file only says how (decision 024).
 */

/** The relying party: id = PUBLIC_URL's host name; origins = PUBLIC_URL's and WEBAUTHN_EXTRA_ORIGINS. */
export interface RelyingParty {
  rpId: string;
  origins: string[];
}

const RP_NAME = 'Customer portal';
/** How long the browser's prompt and the challenge live. */
export const CHALLENGE_MS = 5 * 60_000;

type Transport = NonNullable<RegistrationResponseJSON['response']['transports']>[number];
const transports: readonly string[] = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'];
/** The transports WebAuthn Level 3 names; a browser's newer ones are dropped. */
const knownTransports = (list: readonly string[]) =>
  list.filter((t): t is Transport => transports.includes(t));

/** A customer's passkeys as the browser's allow/exclude lists name them. */
const descriptors = (passkeys: PasskeyRow[]) =>
  passkeys.map((p) => ({
    id: p.credentialId,
    ...(p.transports.length ? { transports: p.transports } : {}),
  }));

/** The library types a descriptor's `type` as any string; it is always 'public-key'. */
const typed = <D extends { type: string }>(list: D[] | undefined) =>
  list?.map((d) => ({ ...d, type: 'public-key' as const }));

/**
 * The signature algorithms a new passkey may use, in order of preference: EdDSA, ES256, RS256, which every
 * authenticator offers one of. Named, not the library's default, which adds the post-quantum ML-DSA-44 first
 * on a runtime that has it (Node.js 24): an authenticator that takes it signs with 3 KB signatures, which an
 * instance on another runtime could not check, through Web Crypto support Node.js still calls experimental
 * (decision 024, amended).
 */
const PASSKEY_ALGORITHMS: readonly number[] = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: string; login: string; firstName: string; lastName: string },
  existing: PasskeyRow[],
) {
  const options: PublicKeyCredentialCreationOptionsJSON = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpId,
    userName: user.login,
    // The user handle is our account id (not the email), so a passkey names no personal data.
    userID: new TextEncoder().encode(user.id),
    userDisplayName: `${user.firstName} ${user.lastName}`,
    timeout: CHALLENGE_MS,
    attestationType: 'none',
    excludeCredentials: descriptors(existing),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: [...PASSKEY_ALGORITHMS],
  });
  const { excludeCredentials, ...rest } = options;
  return {
    ...rest,
    pubKeyCredParams: typed(options.pubKeyCredParams) ?? [],
    ...(excludeCredentials ? { excludeCredentials: typed(excludeCredentials) } : {}),
  };
}

/** The new credential's columns, or null when the browser's answer does not check out. */
export async function verifyRegistration(
  rp: RelyingParty,
  answer: PasskeyRegistrationResponse,
  expectedChallenge: (challenge: string) => Promise<boolean>,
) {
  const response: RegistrationResponseJSON = {
    ...answer,
    response: { ...answer.response, transports: knownTransports(answer.response.transports ?? []) },
    clientExtensionResults: answer.clientExtensionResults ?? {},
  };
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
    if (!result.verified) return null;
    const info = result.registrationInfo;
    return {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      signCount: info.credential.counter,
      transports: info.credential.transports ?? response.response.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      aaguid: info.aaguid,
    };
  } catch {
    // The library throws for every malformed or failing answer; the caller gives one refusal.
    return null;
  }
}

/** Options for an assertion: `allow` empty means any discoverable passkey of this site (sign-in alone). */
export async function authenticationOptions(rp: RelyingParty, allow: PasskeyRow[]) {
  const options: PublicKeyCredentialRequestOptionsJSON = await generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: descriptors(allow),
    userVerification: 'required',
    timeout: CHALLENGE_MS,
  });
  const { allowCredentials, ...rest } = options;
  return { ...rest, ...(allowCredentials ? { allowCredentials: typed(allowCredentials) } : {}) };
}

/**
 * Checks an assertion by `passkey` (user verification required; a counter that does not go up, when
 * either counts, is refused by the library as a possible clone). The new counter and backup state, or
 * null when it does not check out.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  answer: PasskeyAuthenticationResponse,
  passkey: PasskeyRow,
  expectedChallenge: (challenge: string) => Promise<boolean>,
): Promise<{ signCount: number; backedUp: boolean } | null> {
  const response: AuthenticationResponseJSON = {
    ...answer,
    clientExtensionResults: answer.clientExtensionResults ?? {},
  };
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.signCount,
        transports: knownTransports(passkey.transports),
      },
    });
    if (!result.verified) return null;
    return {
      signCount: result.authenticationInfo.newCounter,
      backedUp: result.authenticationInfo.credentialBackedUp,
    };
  } catch {
    return null;
  }
}
