import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { clearContentCache } from '../content/api/content-cache';
import { registerNavigator } from '../lib/app-navigation';
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

// Test files share a worker's modules and its jsdom window (the web project runs with `isolate: false`:
// a fresh window and module graph per file cost about 3 s a file). So each file starts from what a fresh
// page would have: the start address, no analytics events, no router registered, real timers.
beforeAll(() => {
  window.history.replaceState(null, '', '/');
  delete window.dataLayer;
  document.title = '';
  // Registering and unregistering a navigator leaves the browser's location in charge, as at start.
  registerNavigator({ navigate: () => undefined, currentPath: () => '/' })();
});
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
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
