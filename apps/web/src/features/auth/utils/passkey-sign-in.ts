import type { PasskeyRequestOptions } from '@portal/contracts/passkeys';
import { auditSignIn } from '../../../session/auth-audit';
import { identityFailureOf } from '../../../session/api/identity-failure';
import { passkeySignInOptions } from '../../../session/api/passkey-options';
import { verifyPasskeySignIn } from '../../../session/api/passkey-verify';
import { completeSignIn } from '../../../session/sign-in';
import type { LoginAttemptResult } from './login-attempt';

/*
 * Signing in with a passkey alone (decision 024): the server's challenge, the browser's prompt (or its
 * autofill list, "conditional mediation"), the assertion checked by the identity service, then the same
 * next step as a verified code (completeSignIn: the OpenID redirect, then the marketing step or the
 * dashboard). Loaded by the login page only when the browser can use passkeys.
 */

export type PasskeySignInResult =
  | LoginAttemptResult
  /** The customer closed the prompt, or another prompt replaced it: nothing to say. */
  | { kind: 'cancelled' };

const browserOptions = (options: PasskeyRequestOptions) => ({
  ...options,
  userVerification: options.userVerification ?? 'required',
  allowCredentials: (options.allowCredentials ?? []).map((c) => ({
    id: c.id,
    type: c.type,
    ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
  })),
});

/** Whether this browser can offer passkeys at all, and in the email field's autofill list. */
export async function passkeySupport(): Promise<{ button: boolean; autofill: boolean }> {
  const { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } =
    await import('@simplewebauthn/browser');
  const button = browserSupportsWebAuthn();
  return { button, autofill: button && (await browserSupportsWebAuthnAutofill()) };
}

/** Cancels a pending passkey prompt (the page is left). */
export async function cancelPasskeyPrompt(): Promise<void> {
  const { WebAuthnAbortService } = await import('@simplewebauthn/browser');
  WebAuthnAbortService.cancelCeremony();
}

/**
 * One passkey sign-in. `autofill`: the prompt waits in the email field's autofill list until the customer
 * picks a passkey there (it is cancelled by a button prompt or when the page is left); any failure to start
 * it is silent, since the customer asked for nothing.
 */
export async function signInWithPasskey(mode: 'button' | 'autofill'): Promise<PasskeySignInResult> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let stage: 'options' | 'prompt' | 'verify' = 'options';
  try {
    const options = await passkeySignInOptions();
    stage = 'prompt';
    const credential = await startAuthentication({
      optionsJSON: browserOptions(options),
      useBrowserAutofill: mode === 'autofill',
    });
    stage = 'verify';
    // Extension results are not used: they are left out.
    const { clientExtensionResults: _unused, ...assertion } = credential;
    const answer = await verifyPasskeySignIn(assertion);
    const outcome = await completeSignIn(answer, { method: 'webauthn' });
    if (outcome.kind === 'redirecting') return { kind: 'continuing' };
    auditSignIn({ isSuccess: false, failureReason: 'Authentication failure' });
    return { kind: 'problem', key: 'unsupportedStatusMessage' };
  } catch (error) {
    // The autofill prompt is the page's own offer: its failures and its replacement by a button prompt
    // need no word. A button prompt replaced by another is no failure either.
    if (mode === 'autofill' && stage !== 'verify') return { kind: 'cancelled' };
    if (stage === 'prompt') {
      return (error as { name?: unknown }).name === 'AbortError'
        ? { kind: 'cancelled' }
        : { kind: 'problem', key: 'passkeyFailedMessage' };
    }
    const failure = identityFailureOf(error);
    auditSignIn({
      isSuccess: false,
      failureReason: failure === 'network' ? 'Network communication problem' : 'Authentication failure',
    });
    if (failure === 'wrongCredentials') return { kind: 'problem', key: 'passkeyFailedMessage' };
    if (failure === 'rateLimited') return { kind: 'problem', key: 'tooManyAttemptsMessage' };
    return { kind: 'problem', key: 'apiError' };
  }
}
