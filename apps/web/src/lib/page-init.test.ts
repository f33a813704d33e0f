import { afterEach, describe, expect, it, vi } from 'vitest';
import { testPageInit } from '../test/content-fixtures';
import {
  baseUrlFor,
  getPageInit,
  loadPageInit,
  PageInitError,
  setPageInit,
  throughDevProxy,
} from './page-init';

function docWithMeta(content: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t');
  if (content !== null) {
    const meta = doc.createElement('meta');
    meta.setAttribute('name', 'portal-settings');
    meta.setAttribute('content', content);
    doc.head.appendChild(meta);
  }
  return doc;
}

afterEach(() => {
  setPageInit(undefined);
  vi.unstubAllGlobals();
});

describe('page init', () => {
  it('reads the settings the server put in the portal-settings meta tag', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const settings = await loadPageInit(docWithMeta(JSON.stringify(testPageInit)));
    expect(settings.contentBaseUrl).toBe('http://portal.test/content-svc');
    expect(getPageInit()).toBe(settings);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fetches /app-settings.json when there is no meta tag (the Vite dev server)', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(testPageInit), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const settings = await loadPageInit(docWithMeta(null));
    expect(fetchMock).toHaveBeenCalledWith('/app-settings.json', expect.anything());
    expect(settings.identity.clientId).toBe('portal-spa');
  });

  it('refuses settings that are not JSON or not in the contract shape', async () => {
    await expect(loadPageInit(docWithMeta('{not json'))).rejects.toBeInstanceOf(PageInitError);
    await expect(
      loadPageInit(docWithMeta(JSON.stringify({ ...testPageInit, contentBaseUrl: 'nope' }))),
    ).rejects.toThrow('The page settings are not in the expected shape');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 404 })),
    );
    await expect(loadPageInit(docWithMeta(null))).rejects.toThrow(
      'The page settings could not be fetched (404)',
    );
    expect(() => getPageInit()).toThrow(PageInitError);
  });

  it("names each service's base URL", () => {
    setPageInit(testPageInit);
    expect(baseUrlFor('content')).toBe('http://portal.test/content-svc');
    expect(baseUrlFor('account')).toBe('http://portal.test/account-svc');
    expect(baseUrlFor('identity')).toBe('http://portal.test/identity');
    expect(baseUrlFor('eventlog')).toBe(testPageInit.eventLoggingBaseUrl);
    expect(baseUrlFor('portal')).toBe(testPageInit.portalBaseUrl);
  });

  it('sends API-server calls through the dev server proxy, leaving other hosts alone', () => {
    const settings = { ...testPageInit, policyBaseUrl: 'https://policy.example.com' };
    const proxied = throughDevProxy(settings, 'http://localhost:5173');
    expect(proxied.contentBaseUrl).toBe('http://localhost:5173/content-svc');
    expect(proxied.identity.issuer).toBe('http://localhost:5173/identity/oauth2/default');
    expect(proxied.policyBaseUrl).toBe('https://policy.example.com');
    expect(throughDevProxy(testPageInit, 'http://portal.test')).toBe(testPageInit);
  });
});
