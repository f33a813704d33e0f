import type { SignInMethod } from '@portal/contracts/sign-in-methods';
import { fetchPasskeyOptions } from './api/passkey-options';
import { registerPasskey } from './api/register-passkey';

/** The browser did not make a passkey: the customer closed its prompt, it timed out, or it failed. */
export class PasskeyPromptFailed extends Error {
  override name = 'PasskeyPromptFailed';
}

/**
 * Adds a passkey named `name` for the customer: the server's options, the browser's prompt
 * (@simplewebauthn/browser, loaded only now), then the new credential to the server. `guarded` wraps each
 * call that may need a recent sign-in (useReauthenticate). Rejects with PasskeyPromptFailed when the
 * browser made none, with the API's error when a call fails.
 */
export async function createPasskey(
  customerId: string,
  name: string,
  guarded: <T>(call: () => Promise<T>) => Promise<T>,
): Promise<SignInMethod> {
  const options = await guarded(() => fetchPasskeyOptions(customerId));
  const { startRegistration } = await import('@simplewebauthn/browser');
  let credential;
  try {
    credential = await startRegistration({
      optionsJSON: {
        ...options,
        pubKeyCredParams: options.pubKeyCredParams,
        excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({
          id: c.id,
          type: c.type,
          ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
        })),
      },
    });
  } catch (error) {
    throw new PasskeyPromptFailed('The browser made no passkey', { cause: error });
  }
  const { clientExtensionResults: _unused, ...answer } = credential;
  return guarded(() => registerPasskey(customerId, name, answer));
}
