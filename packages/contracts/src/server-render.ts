import type { Navigation, PageContent, SiteSettings } from './content';
import type { PageInitSettings } from './page-init';

/*
 * The one call between the server and the web build that is not HTTP (decision 016): the server imports
 * the build's render module (apps/web/src/entry-server.tsx -> dist/.ssr/entry-server.js) and calls
 * renderPage with what the content service has for the request.
 */

/** The id of the JSON element that carries a rendered page's hydration data (server writes, SPA reads). */
export const HYDRATION_ELEMENT_ID = 'portal-hydration';

/**
 * The window property through which a server-rendered page's submit guard (the one inline script it carries,
 * allowed by its hash) hands the SPA a form the customer sent before the app had taken the page over: the
 * guard holds such a submit (no native send, so nothing typed goes into an address) and the SPA sends it
 * once it has the form (decision 031). The SPA sets `live` when it handles submits itself.
 */
export const EARLY_SUBMIT_GLOBAL = '__portalEarlySubmit';

/** The attribute the submit guard puts on the button of a form it holds: the button shows it is working. */
export const EARLY_SUBMIT_HELD_ATTRIBUTE = 'data-held';

/**
 * The submit guard itself, as the server puts it in a rendered page's head (its hash goes into that
 * answer's CSP): until `live`, a form sent is held (no native send, which would put what was typed, a
 * password included, into the page's address) and kept with the button that sent it, for the SPA to send.
 * That button is marked busy meanwhile (`aria-busy` and EARLY_SUBMIT_HELD_ATTRIBUTE, which shows a spinner
 * as a sending button does), so a press on a slow phone is seen to have been taken.
 */
export const EARLY_SUBMIT_SCRIPT =
  `(function(){var h={live:false,form:null,submitter:null};window.${EARLY_SUBMIT_GLOBAL}=h;` +
  `document.addEventListener('submit',function(e){if(h.live)return;e.preventDefault();e.stopPropagation();` +
  `var b=h.submitter;if(b){b.removeAttribute('${EARLY_SUBMIT_HELD_ATTRIBUTE}');b.removeAttribute('aria-busy')}` +
  `h.form=e.target;h.submitter=b=e.submitter||null;` +
  `if(b){b.setAttribute('${EARLY_SUBMIT_HELD_ATTRIBUTE}','');b.setAttribute('aria-busy','true')}},true)})();`;

/**
 * The id of the JSON element that carries the public content of a page the SPA renders itself (a signed-in
 * page, a sign-in step): the site settings, the navigation and the page at the address, as the content
 * service answers them, so the SPA's first render waits for no content call (decision 017). Content holds
 * nothing customer-specific: the same for every visitor.
 */
export const PUBLIC_CONTENT_ELEMENT_ID = 'portal-content';

/** What that element holds. */
export interface PublicContentPayload {
  /** The content path of the page (normalised), which the SPA checks against its own address. */
  path: string;
  settings: SiteSettings;
  navigation: Navigation | null;
  page: PageContent;
}

/**
 * The SPA's routes that are not content pages (apps/web app/router.tsx): with the content service's pages,
 * the addresses the portal knows. Any other address is answered 404 with the not-found page.
 */
export const SPA_ROUTES_OUTSIDE_CONTENT: readonly string[] = ['/', '/login/callback', '/account/shared-view'];

/** An experiment the visitor is in, as the flag SDK's tracking callback reports it for analytics. */
export interface ExperimentViewed {
  experimentId: string;
  variationId: string;
}

export interface ServerRenderInput {
  /** The full request URL (origin, path and query). */
  url: string;
  pageInit: PageInitSettings;
  settings: SiteSettings;
  navigation: Navigation | null;
  /** The page at the address; null when content has none (the not-found page is rendered, for a 404). */
  page: PageContent | null;
  /** The variant of each of the page's content experiments for this visitor (flag key -> variant id). */
  flags: Record<string, string>;
  /** The experiments the visitor is in, for the page to report to analytics. */
  viewed: ExperimentViewed[];
}

export interface ServerRenderResult {
  /** The markup of #root. */
  html: string;
  /** What the browser hydrates with, embedded as JSON (the web app's own shape). */
  hydration: unknown;
  /** The document's title. */
  title: string;
}

/** The render module's export. Null: the routes would not show the page as it is (the browser decides). */
export type RenderPage = (input: ServerRenderInput) => Promise<ServerRenderResult | null>;
