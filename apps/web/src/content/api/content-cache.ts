import { ApiError } from '../../lib/api-client';

/** How long a content answer stays fresh. */
const CONTENT_STALE_TIME = 5 * 60_000;

/** Pause before the one retry of a content call that failed on the network or with a 5xx. */
const CONTENT_RETRY_DELAY_MS = 500;

/** A failure worth one more try: the network or a 5xx. A 4xx will answer the same again. */
const worthRetrying = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

async function withOneRetry<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!worthRetrying(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, CONTENT_RETRY_DELAY_MS));
    return load();
  }
}

interface Entry {
  at: number;
  value: Promise<unknown>;
}

const entries = new Map<string, Entry>();

/**
 * Content answers by key, each kept CONTENT_STALE_TIME (spec: content is the same for everyone, and a
 * page read again within minutes need not be fetched again). The route loaders read content through this
 * rather than the query cache, so that a public page's code does not carry the query library (issue 15,
 * decision 016); customer data stays in TanStack Query. A failed load is not kept: the next read tries
 * again; a network failure or a 5xx is tried once more first, as the query cache does for customer data.
 * Calls for the same key while one is in flight share it.
 */
export function cachedContent<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const entry = entries.get(key);
  if (entry && now - entry.at < CONTENT_STALE_TIME) return entry.value as Promise<T>;
  const value = withOneRetry(load);
  entries.set(key, { at: now, value });
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}

/** Puts an answer in the cache (a server-rendered page's content, for the pages that follow it). */
export function primeContent(key: string, value: unknown, now = Date.now()): void {
  entries.set(key, { at: now, value: Promise.resolve(value) });
}

/**
 * Puts a failure in the cache: an answer known already to be a refusal (the server found no page at an
 * address and answered 404 itself), so the loader shows it without asking the content service again.
 */
export function primeContentFailure(key: string, error: Error, now = Date.now()): void {
  const value = Promise.reject(error);
  value.catch(() => undefined);
  entries.set(key, { at: now, value });
}

/** Forgets every answer (tests). */
export function clearContentCache(): void {
  entries.clear();
}
