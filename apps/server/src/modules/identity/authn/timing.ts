/**
 * Answers that must not reveal whether an account exists (registration's OK, forgotten password, unlock)
 * take at least this long, whichever path they took, so timing tells no more than the body does.
 */
const MINIMUM_ENUMERATION_SAFE_MS = 150;

export function padded<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    const startedAt = performance.now();
    try {
      return await fn(...args);
    } finally {
      const wait = MINIMUM_ENUMERATION_SAFE_MS - (performance.now() - startedAt);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}
