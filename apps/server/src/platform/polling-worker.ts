import { AsyncResource } from 'node:async_hooks';

/** A background worker of every instance: it polls, can be woken at once, drained (tests) and stopped. */
export interface PollingWorker {
  /** Starts polling (idempotent). */
  start(): void;
  /** Looks for work now rather than at the next poll; safe to call from inside a request or transaction. */
  wake(): void;
  /** Runs passes until one finds nothing, and resolves when none is in flight. */
  drain(): Promise<void>;
  /** Stops polling and waits for the pass in flight. */
  stop(): Promise<void>;
}

/**
 * The loop the message queue's worker and the webhook dispatcher share: one pass at a time (a wake during
 * a pass runs another straight after it), the next poll `pollMs` after a pass ends, and a failed pass
 * (the database is down) reported and retried at the next poll. `pass` gets a function that says whether
 * the worker is stopping, so it can end early.
 */
export function createPollingWorker(options: {
  name: string;
  pollMs: number;
  pass: (stopping: () => boolean) => Promise<void>;
  onError: (error: unknown) => void;
}): PollingWorker {
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const isStopping = () => stopping;

  const schedule = () => {
    clearTimeout(timer);
    if (!started || stopping) return;
    timer = setTimeout(run, options.pollMs);
    timer.unref();
  };

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await options.pass(isStopping);
      } while (again && !stopping);
    })()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        schedule();
      });
  }

  // Wakes come from inside requests and transactions; passes must run outside their async context
  // (PGlite routes a query made inside a transaction's context into that transaction).
  const scope = new AsyncResource(options.name);

  return {
    start() {
      if (started) return;
      started = true;
      stopping = false;
      scope.runInAsyncScope(() => setImmediate(run));
    },
    wake() {
      if (!started || stopping) return;
      scope.runInAsyncScope(() => setImmediate(run));
    },
    async drain() {
      if (stopping) return;
      scope.runInAsyncScope(run);
      while (running) await running;
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      while (running) await running;
      started = false;
    },
  };
}
