/**
 * The app's start (page init, then the session layer) as the route loaders see it. A page the server
 * rendered is taken over before its start has finished (main.tsx, issue 15): the next page's loader waits
 * here, so its guards never run before a stored sign-in has been loaded. Anywhere else (tests, the SPA's
 * own first render, which starts first) there is nothing to wait for.
 */
let started: Promise<void> = Promise.resolve();

/** The loaders wait for `start` from now on. Its failure does not fail them: the start reports its own. */
export function holdLoadersUntil(start: Promise<unknown>): void {
  started = start.then(
    () => undefined,
    () => undefined,
  );
}

export function whenStarted(): Promise<void> {
  return started;
}
