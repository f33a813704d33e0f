import {
  normaliseContentPath,
  type PageContentInput,
  type SiteSettingsInput,
} from '@portal/contracts/content';
import { vi } from 'vitest';
import { navigationInput, pageInputs, settingsInput, TEST_ORIGIN } from './content-fixtures';

export interface FakeContentOptions {
  settings?: Partial<SiteSettingsInput> | 'fail';
  navigation?: 'fail';
  /** Extra or replaced pages by path; 'fail' answers that path with a 500. */
  pages?: Record<string, PageContentInput | 'fail'>;
  /** The feature-flag definitions served at {apiHost}/api/features/{sdkKey} (404 when not given). */
  features?: unknown;
}

function json(status: number, body: unknown, statusText = status === 200 ? 'OK' : 'Error'): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

const envelope = (code: string, message: string) => ({ code, message, correlationId: 'test-correlation' });

/**
 * Stands in for the content service at the test page-init's content base URL, answering like the real
 * one (status codes, envelope, status text). Installed as the global fetch.
 */
export function installFakeContentService(options: FakeContentOptions = {}) {
  const pages: Record<string, PageContentInput | 'fail'> = { ...pageInputs, ...options.pages };
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.href === `${TEST_ORIGIN}/content-svc/api/features/sdk-test` && options.features !== undefined)
      return json(200, options.features);
    const base = `${TEST_ORIGIN}/content-svc/api/v1/content/`;
    if (!url.href.startsWith(base)) return json(404, envelope('NOT_FOUND', 'Not found'), 'Not Found');
    const call = url.pathname.slice(new URL(base).pathname.length);
    if (call === 'getbytype') {
      if (options.settings === 'fail')
        return json(500, envelope('INTERNAL', 'Broken'), 'Internal Server Error');
      return json(200, [
        { ...settingsInput, ...options.settings, isErrorContext: url.searchParams.get('error') === 'true' },
      ]);
    }
    if (call === 'getnavigation') {
      if (options.navigation === 'fail')
        return json(503, envelope('UNAVAILABLE', 'Down'), 'Service Unavailable');
      return json(200, navigationInput);
    }
    if (call === 'getByRelativeUrl') {
      const key = normaliseContentPath(url.searchParams.get('relativeUrl') ?? '');
      const found = pages[key];
      if (found === 'fail') return json(500, envelope('INTERNAL', 'Broken'), 'Internal Server Error');
      if (!found) return json(404, envelope('NOT_FOUND', 'No page'), 'Not Found');
      return json(200, found);
    }
    return json(404, envelope('NOT_FOUND', 'Not found'), 'Not Found');
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
