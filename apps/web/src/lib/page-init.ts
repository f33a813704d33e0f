import type { ServiceName } from '@portal/contracts/call';
import type { PageInitSettings } from '@portal/contracts/page-init';

let current: PageInitSettings | undefined;
/** The load in progress (or done) that `pageInitReady` waits on. */
let loading: Promise<PageInitSettings> | undefined;

export class PageInitError extends Error {
  override name = 'PageInitError';
}

/**
 * Reads the settings the server hands the SPA: the `portal-settings` meta tag it injects into
 * index.html, or (under the Vite dev server, which serves its own index.html) GET /app-settings.json.
 * Calls made meanwhile wait for it (`pageInitReady`). The schema it is checked with comes with it, in its
 * own file: a page the server rendered is taken over before this runs, so the schema library is not on
 * its way to a working page (issue 15).
 */
export function loadPageInit(doc: Document = document): Promise<PageInitSettings> {
  const load = readPageInit(doc);
  loading = load;
  load.catch(() => undefined);
  return load;
}

async function readPageInit(doc: Document): Promise<PageInitSettings> {
  const schema = import('@portal/contracts/page-init');
  // A failed load is reported as a page-init failure, not as an unhandled rejection of this one.
  schema.catch(() => undefined);
  const meta = doc.querySelector('meta[name="portal-settings"]')?.getAttribute('content');
  let raw: unknown;
  if (meta) {
    try {
      raw = JSON.parse(meta);
    } catch {
      throw new PageInitError('The page settings are not valid JSON');
    }
  } else {
    let response: Response;
    try {
      response = await fetch('/app-settings.json', { headers: { Accept: 'application/json' } });
    } catch (error) {
      throw new PageInitError(
        error instanceof Error ? error.message : 'The page settings could not be fetched',
      );
    }
    if (!response.ok) throw new PageInitError(`The page settings could not be fetched (${response.status})`);
    raw = await response.json().catch(() => undefined);
  }
  let pageInitSettings: Awaited<typeof schema>['pageInitSettings'];
  try {
    ({ pageInitSettings } = await schema);
  } catch (error) {
    throw new PageInitError(
      error instanceof Error ? error.message : 'The page settings could not be checked',
    );
  }
  const parsed = pageInitSettings.safeParse(raw);
  if (!parsed.success) throw new PageInitError('The page settings are not in the expected shape');
  const underDevServer = import.meta.env.DEV && import.meta.env.MODE !== 'test';
  const settings = underDevServer ? throughDevProxy(parsed.data, window.location.origin) : parsed.data;
  current = settings;
  return settings;
}

/**
 * Under the Vite dev server the page is on :5173 while the settings name the API server's origin; calls
 * to that origin are sent to our own origin instead, where the dev server proxies them (no CORS needed).
 */
export function throughDevProxy(settings: PageInitSettings, pageOrigin: string): PageInitSettings {
  const apiOrigin = new URL(settings.portalBaseUrl).origin;
  if (apiOrigin === pageOrigin) return settings;
  const swap = (url: string) => (url.startsWith(apiOrigin) ? pageOrigin + url.slice(apiOrigin.length) : url);
  return {
    ...settings,
    portalBaseUrl: swap(settings.portalBaseUrl),
    contentBaseUrl: swap(settings.contentBaseUrl),
    accountBaseUrl: swap(settings.accountBaseUrl),
    documentBaseUrl: swap(settings.documentBaseUrl),
    policyBaseUrl: swap(settings.policyBaseUrl),
    eventLoggingBaseUrl: swap(settings.eventLoggingBaseUrl),
    registrationBaseUrl: swap(settings.registrationBaseUrl),
    identity: {
      ...settings.identity,
      orgUrl: swap(settings.identity.orgUrl),
      issuer: swap(settings.identity.issuer),
    },
    featureFlags: { ...settings.featureFlags, apiHost: swap(settings.featureFlags.apiHost) },
  };
}

/** The settings loaded at start. */
export function getPageInit(): PageInitSettings {
  if (!current) throw new PageInitError('Page settings have not been loaded yet');
  return current;
}

/** Replaces the loaded settings (tests, and start-up when the settings come from elsewhere). */
export function setPageInit(settings: PageInitSettings | undefined): void {
  current = settings;
  loading = undefined;
}

/**
 * The settings once loaded: at once when they are, after the load in progress when not; rejects when
 * they failed to load or no load was started.
 */
export function pageInitReady(): Promise<PageInitSettings> {
  if (current) return Promise.resolve(current);
  return loading ?? Promise.reject(new PageInitError('Page settings have not been loaded yet'));
}

/** Base URL (no trailing slash) of a service, as page init names it. */
export function baseUrlFor(service: ServiceName, settings: PageInitSettings = getPageInit()): string {
  switch (service) {
    case 'content':
      return settings.contentBaseUrl;
    case 'identity':
      return settings.identity.orgUrl;
    case 'registration':
      return settings.registrationBaseUrl;
    case 'account':
      return settings.accountBaseUrl;
    case 'policy':
      return settings.policyBaseUrl;
    case 'document':
      return settings.documentBaseUrl;
    case 'eventlog':
      return settings.eventLoggingBaseUrl;
    case 'portal':
      return settings.portalBaseUrl;
    case 'integration':
      // The insurer's systems call it, never the SPA: page init does not even name it.
      throw new Error('The integration API is not called from the browser');
    case 'staff':
      // The staff console is another app: a customer's page never calls it.
      throw new Error('The staff console is not called from the customer portal');
  }
}
