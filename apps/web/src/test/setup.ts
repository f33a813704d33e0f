import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { clearContentCache } from '../content/api/content-cache';
import { queryClient } from '../session/query-client';
import { clearAnsweredRequests, fakeApi } from './fake-api/fake-api';

// Pages are lazy chunks: the first test to reach one waits for its cold transform, which on a busy
// two-core CI machine can pass Testing Library's default 1 s. A wait still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  // Each test reads content and customer data afresh (the app keeps both for minutes).
  clearContentCache();
  queryClient.clear();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

// jsdom has no scrolling; the shell scrolls to the top on every route change.
window.scrollTo = () => undefined;

// The one fake API (MSW), answering contract calls a test declares with fakeCall(); see test/fake-api.
beforeAll(() => fakeApi.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  fakeApi.resetHandlers();
  clearAnsweredRequests();
});
afterAll(() => fakeApi.close());
