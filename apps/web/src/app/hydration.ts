import { normaliseContentPath } from '@portal/contracts/content/paths';
import {
  HYDRATION_ELEMENT_ID,
  PUBLIC_CONTENT_ELEMENT_ID,
  type PublicContentPayload,
} from '@portal/contracts/server-render';

/**
 * What a server-rendered page carries for the browser to hydrate with (decision 016): the route loaders'
 * data as the server computed it, and the variants of the page's content experiments. It travels as a
 * JSON data block (`<script type="application/json">`), which the browser never runs, so the CSP's
 * script-src 'self' holds.
 */
export interface HydrationPayload {
  /** Route id -> what its loader returned on the server. */
  loaderData: Record<string, unknown>;
  /** Flag key -> the variant id the page was rendered with. */
  flags: Record<string, string>;
  /** The experiments the visitor is in (what the flag SDK's tracking callback reports). */
  viewed: Array<{ experimentId: string; variationId: string }>;
}

function isPayload(value: unknown): value is HydrationPayload {
  if (typeof value !== 'object' || value === null) return false;
  const { loaderData, flags, viewed } = value as Partial<HydrationPayload>;
  return (
    typeof loaderData === 'object' &&
    loaderData !== null &&
    typeof flags === 'object' &&
    flags !== null &&
    Array.isArray(viewed)
  );
}

/** The page's hydration data, or null for a page the server did not render (or a payload that is not ours). */
export function readHydrationPayload(doc: Document = document): HydrationPayload | null {
  const text = doc.getElementById(HYDRATION_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPayload(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function isPublicContent(value: unknown): value is PublicContentPayload {
  if (typeof value !== 'object' || value === null) return false;
  const { path, settings, page } = value as Partial<PublicContentPayload>;
  return typeof path === 'string' && typeof settings === 'object' && typeof page === 'object';
}

/**
 * The public content the server put into a page the SPA renders itself (decision 017): the settings, the
 * navigation and the page at this address. Null when there is none, or it is for another address.
 */
export function readPublicContent(
  doc: Document = document,
  pathname: string = window.location.pathname,
): PublicContentPayload | null {
  const text = doc.getElementById(PUBLIC_CONTENT_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPublicContent(parsed) && parsed.path === normaliseContentPath(pathname) ? parsed : null;
  } catch {
    return null;
  }
}
