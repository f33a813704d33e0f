import { sessionKeys, writeSession } from './storage-keys';

/**
 * Keeps `redirect_url` and `RelayState` from the sign-in page's query for after the sign-in (spec section
 * 2); post-login.ts follows them once the customer is signed in. Apart from post-login.ts so the sign-in
 * page does not carry the code that checks and follows them.
 */
export function captureLoginParams(search: string): void {
  const params = new URLSearchParams(search);
  const redirectUrl = params.get('redirect_url');
  const relayState = params.get('RelayState');
  if (redirectUrl) writeSession(sessionKeys.redirectUrl, redirectUrl);
  if (relayState) writeSession(sessionKeys.relayState, relayState);
}
