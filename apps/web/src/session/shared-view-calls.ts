import {
  endSharedViewCall,
  openSharedViewCall,
  recordSharedViewPageCall,
} from '@portal/contracts/screen-share';
import { callApi } from '../lib/api-client';
import { setAuthenticated, setSessionData } from './session-store';
import { sessionKeys, writeSession } from './storage-keys';
import { epochSeconds, getCurrentUser, storeTokens } from './token-store';

/*
 * The calls of the contact centre's read-only view (issue 41 point 6), loaded only in such a tab: the
 * link's one-time ticket exchanged for the view's token, each page it shows, and its end.
 */

/** Exchanges the ticket and makes this tab the view: tokens, the banner's names, signed in. */
export async function openSharedView(ticket: string): Promise<void> {
  const view = await callApi(openSharedViewCall, { body: { ticket } });
  writeSession(
    sessionKeys.sharedView,
    JSON.stringify({ customerName: view.customerName, staffName: view.staffName }),
  );
  storeTokens({
    access_token: view.accessToken,
    token_type: 'Bearer',
    scope: 'portal.customer',
    expires_at: epochSeconds(Date.parse(view.expiresAt)),
  });
  setSessionData({ status: 'loggedIn' });
  setAuthenticated(true);
}

export async function recordSharedViewPage(path: string, title: string): Promise<void> {
  const customerId = getCurrentUser()?.customerId;
  if (!customerId) return;
  // Only the path: never a query or fragment (tickets, ids).
  const clean =
    path
      .split(/[?#]/)[0]!
      .replace(/[^A-Za-z0-9/_-]/g, '')
      .slice(0, 200) || '/';
  await callApi(recordSharedViewPageCall, {
    params: { customerId },
    body: { path: clean.startsWith('/') ? clean : `/${clean}`, title: title.slice(0, 120) },
  }).catch(() => undefined);
}

/** Ends the view at the server: its token is refused everywhere from then on. */
export async function endSharedView(): Promise<void> {
  const customerId = getCurrentUser()?.customerId;
  if (!customerId) return;
  await callApi(endSharedViewCall, { params: { customerId }, body: {} });
}
