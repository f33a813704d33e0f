import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { primaryAuthentication } from '../api/authn';
import { sendFactorCode, verifyFactorCode } from '../api/factor-verify';
import { completeSignIn } from '../sign-in';
import { getSessionData } from '../session-store';
import { setPageInit } from '../../lib/page-init';
import { testPageInit } from '../../test/content-fixtures';
import type { FakeUser } from '../../test/fake-api/identity-scenario';

/** Signs in with the password through the (fake) provider: session data at mfaRequired. */
export async function reachVerification(user: FakeUser): Promise<void> {
  setPageInit(testPageInit);
  await completeSignIn(await primaryAuthentication(user.email, user.password), { navigate: false });
}

/** Then asks for a code by the factor of this type: session data at mfaChallenge. */
export async function reachChallenge(user: FakeUser, type: 'sms' | 'call'): Promise<void> {
  await reachVerification(user);
  const data = getSessionData();
  const factor = data?.factors?.find((f) => f.type === type);
  if (!factor || !data?.stateToken) throw new Error(`no ${type} factor`);
  await completeSignIn(await sendFactorCode(factor.id, data.stateToken), { navigate: false });
}

/** The URL the provider would redirect back to for the redirect this tab prepared (PKCE state stored). */
export function callbackUrl(code = 'auth-code-1'): string {
  const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.') && !k.startsWith('oidc.user:'));
  if (!key) throw new Error('no authorize request was prepared');
  return `${testPageInit.identity.redirectUri}?code=${code}&state=${key.slice('oidc.'.length)}`;
}

/** All the way to the token exchange: the right code is sent and the authorize redirect prepared. */
export async function reachTokenExchange(
  user: FakeUser,
  type: 'sms' | 'call',
  code: () => string | undefined,
): Promise<void> {
  await reachChallenge(user, type);
  const data = getSessionData();
  const answer = await verifyFactorCode(data!.factorId!, data!.stateToken!, code()!);
  // Never settles: the page is being replaced by the provider's redirect (jsdom cannot follow it).
  void completeSignIn(answer);
  await waitFor(() => expect(Object.keys(sessionStorage).some((k) => k.startsWith('oidc.'))).toBe(true));
}
