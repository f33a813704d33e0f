import { callApi } from '../lib/api-client';
import { getPageInit } from '../lib/page-init';
import { readSession, removeSession, sessionKeys } from './storage-keys';

/**
 * Where a customer goes once signed in (spec sections 2 and 4): the RelayState address, else the stored
 * redirect_url (base64, with a {statusToken} placeholder filled by the account service), else the next
 * step of the journey. A policy, cover, documents or bills page opened while signed out is kept as
 * redirectAfterLogin and followed after the marketing step.
 */

const STATUS_TOKEN_PLACEHOLDER = '{statusToken}';
/** Spec section 8, word for word. */
const STATUS_TOKEN_POST_ERROR = 'Failed to post status token or invalid response';
const STATUS_TOKEN_ERROR = 'Failed to obtain token';

export class StatusTokenError extends Error {
  override name = 'StatusTokenError';
}

/** Decodes base64 (or base64url) text as UTF-8; null when it is not valid. */
export function decodeBase64(value: string): string | null {
  try {
    const base64 = value.trim().replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Origins a post-sign-in address may lead to: this site and the portal's own services. */
function allowedOrigins(pageOrigin: string): Set<string> {
  const origins = new Set([pageOrigin]);
  try {
    const s = getPageInit();
    for (const url of [
      s.portalBaseUrl,
      s.contentBaseUrl,
      s.accountBaseUrl,
      s.documentBaseUrl,
      s.policyBaseUrl,
      s.registrationBaseUrl,
    ]) {
      origins.add(new URL(url).origin);
    }
  } catch {
    // Without page settings only this site is allowed.
  }
  return origins;
}

export type Destination = { kind: 'internal'; path: string } | { kind: 'external'; url: string };

/**
 * Checks an address taken from the URL or storage before anyone is sent there: a site path, or an https
 * address (http only for this very origin, e.g. local development) on an allowed origin. Anything else —
 * another site, javascript:, protocol-relative //host — is refused, so a crafted sign-in link cannot
 * carry a customer (or their status token) off to someone else's page.
 */
export function safeDestination(
  address: string,
  pageOrigin: string = window.location.origin,
): Destination | null {
  const value = address.trim();
  if (value === '') return null;
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) {
    return { kind: 'internal', path: value };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && url.origin === pageOrigin)) return null;
  if (!allowedOrigins(pageOrigin).has(url.origin)) return null;
  if (url.origin === pageOrigin) return { kind: 'internal', path: url.pathname + url.search + url.hash };
  return { kind: 'external', url: url.href };
}

/** POSTs for a status token; throws the spec's message for any failure or a bad answer. */
async function postStatusToken(customerId: string): Promise<string> {
  try {
    // The account contracts load only for the rare sign-in link that asks for a status token.
    const { statusTokenCall } = await import('@portal/contracts/account');
    const answer = await callApi(statusTokenCall, {
      params: { customerId },
      body: {},
    });
    if (!answer.token) throw new StatusTokenError(STATUS_TOKEN_POST_ERROR);
    return answer.token;
  } catch (error) {
    if (error instanceof StatusTokenError) throw error;
    throw new StatusTokenError(STATUS_TOKEN_POST_ERROR, { cause: error });
  }
}

/** Substitutes every {statusToken} of a decoded redirect_url, asking for the token only when needed. */
async function fillStatusToken(address: string, customerId: string): Promise<string> {
  if (!address.includes(STATUS_TOKEN_PLACEHOLDER)) return address;
  let token: string;
  try {
    token = await postStatusToken(customerId);
  } catch (error) {
    throw new StatusTokenError(STATUS_TOKEN_ERROR, { cause: error });
  }
  return address.replaceAll(STATUS_TOKEN_PLACEHOLDER, encodeURIComponent(token));
}

/**
 * The address waiting after sign-in (RelayState first, then redirect_url), both keys removed as they are
 * read. Null when neither holds a usable address. Throws StatusTokenError when redirect_url needs a
 * status token that could not be obtained.
 */
export async function takeWaitingDestination(customerId: string): Promise<Destination | null> {
  const relayState = readSession(sessionKeys.relayState);
  const redirectUrl = readSession(sessionKeys.redirectUrl);
  removeSession(sessionKeys.relayState);
  removeSession(sessionKeys.redirectUrl);
  if (relayState) {
    const destination = safeDestination(relayState);
    if (destination) return destination;
    console.warn('Ignoring a RelayState address that is not allowed');
  }
  if (redirectUrl) {
    const decoded = decodeBase64(redirectUrl);
    if (decoded === null) {
      console.warn('Ignoring a redirect_url that is not base64');
      return null;
    }
    // Checked before and after filling: the token must never be fetched for an address we would refuse.
    if (!safeDestination(decoded.replaceAll(STATUS_TOKEN_PLACEHOLDER, 'x'))) {
      console.warn('Ignoring a redirect_url address that is not allowed');
      return null;
    }
    return safeDestination(await fillStatusToken(decoded, customerId));
  }
  return null;
}

/**
 * The page to open once the customer is fully signed in (after the marketing step): the stored
 * redirectAfterLogin path (then forgotten), else the dashboard.
 */
export function takePostLoginPath(dashboardPage: string): string {
  const stored = readSession(sessionKeys.redirectAfterLogin);
  removeSession(sessionKeys.redirectAfterLogin);
  const destination = stored ? safeDestination(stored) : null;
  return destination?.kind === 'internal' ? destination.path : dashboardPage;
}

/** Opens a destination: a site path through the router, another (allowed) site by replacing the page. */
export function openDestination(destination: Destination, navigate: (path: string) => void): void {
  if (destination.kind === 'internal') navigate(destination.path);
  else window.location.assign(destination.url);
}
