import { knownTransaction, type AuthnAnswer } from '../../session/api/authn-answer';
import { sendFactorCode, verifyFactorAssertion } from '../../session/api/factor-verify';

/**
 * A passkey as the second step after the password (Okta's webauthn factor): asks for the factor's
 * challenge (MFA_CHALLENGE), lets the browser ask the customer for any of their passkeys, and answers the
 * challenge with the assertion. Resolves to what verifyFactorCode resolves to (SUCCESS with a
 * sessionToken: hand it to completeSignIn) and rejects as it does (identityFailureOf: a refused passkey is
 * 'wrongCode'). The browser's own refusal (the customer cancelled, no passkey on this device, timed out)
 * rejects with its DOMException-based error: see isPasskeyCancelled.
 */
export async function verifyWithPasskey(stateToken: string, factorId: string): Promise<AuthnAnswer> {
  const answer = await sendFactorCode(factorId, stateToken);
  const challenged = knownTransaction(answer);
  if (
    !challenged ||
    challenged.status !== 'MFA_CHALLENGE' ||
    challenged._embedded.factor.factorType !== 'webauthn'
  ) {
    throw new Error(`Unexpected answer ${answer.status} to a passkey challenge`);
  }
  const challenge = challenged._embedded.factor._embedded.challenge;
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const assertion = await startAuthentication({
    optionsJSON: {
      challenge: challenge.challenge,
      rpId: challenge.rpId,
      timeout: challenge.timeout,
      userVerification: challenge.userVerification as UserVerificationRequirement,
      allowCredentials: challenge.allowCredentials.map((c) => ({
        id: c.id,
        type: c.type,
        ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
      })),
    },
  });
  return verifyFactorAssertion(factorId, challenged.stateToken, {
    clientData: assertion.response.clientDataJSON,
    authenticatorData: assertion.response.authenticatorData,
    signatureData: assertion.response.signature,
    credentialId: assertion.id,
  });
}

/** The browser's "no": the customer cancelled the prompt, it timed out, or another prompt replaced it. */
export function isPasskeyCancelled(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const cause = (error as { cause?: { name?: unknown } } | null)?.cause?.name;
  return (
    name === 'AbortError' ||
    name === 'NotAllowedError' ||
    cause === 'NotAllowedError' ||
    cause === 'AbortError'
  );
}
