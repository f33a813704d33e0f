import { AsyncResource } from 'node:async_hooks';
import { HttpError } from './errors';

/** Seconds a client is asked to wait when a write queue is full or closing. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** A 503 with Retry-After: the write queue is full (or the server is shutting down); nothing was stored. */
function busy(): HttpError {
  return new HttpError(
    503,
    'SERVICE_UNAVAILABLE',
    'The service is busy. Please try again shortly.',
    undefined,
    { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  );
}

export interface GroupCommitOptions<I, O> {
  /**
   * Writes a batch in one transaction and resolves, only once it has committed, with one result per
   * item in the same order. Throws when nothing of the batch was committed.
   */
  write: (items: I[]) => Promise<O[]>;
  /** The most items written in one batch. */
  maxBatch: number;
  /** The most items waiting behind the batches being written; a submit beyond that is refused (503). */
  maxQueue: number;
  /**
   * The most batches being written at once (default 1). More than one only helps a database that runs
   * transactions side by side (PostgreSQL, each on its own connection): a batch's round trips then
   * overlap with the next one's instead of the next one waiting for its COMMIT. Batches that touch the
   * same rows or locks still wait for each other in the database.
   */
  maxInFlight?: number;
  /** Told the size of each batch as it starts (the metrics). */
  onBatch?: (size: number) => void;
}

export interface GroupCommit<I, O> {
  /** Resolves with the item's result once the batch holding it has committed; rejects if it did not. */
  submit(item: I): Promise<O>;
  /** Items waiting behind the batches being written (the metrics' queue depth). */
  waiting(): number;
  /** Refuses new items and resolves once every item already submitted is written (or has failed). */
  close(): Promise<void>;
}

interface Waiting<I, O> {
  item: I;
  resolve: (result: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit, leader/follower style: an item submitted while no batch is being written starts one at
 * once (after one turn of the event loop, so items submitted together go together); items submitted
 * while `maxInFlight` batches are being written wait and go together in the next one, started as soon as
 * one of those commits. No timer delays a lone item, and under load one transaction carries many items.
 * A caller is answered only after the COMMIT of its batch, or with the batch's error: nothing is
 * acknowledged and then lost.
 *
 * A batch that fails because the database (or Redis) is unavailable fails the items queued behind it too
 * (they would wait for a timeout of their own and get the same 503). Any other failure of a batch of several
 * is retried item by item, so one bad item fails alone.
 *
 * Batches run in the async context the queue was created in, never in a caller's: on the embedded
 * database a caller's open transaction would otherwise swallow every other caller's items. Never submit
 * from inside a transaction and wait for the answer there: the batch needs the database too.
 */
export function groupCommit<I, O>({
  write,
  maxBatch,
  maxQueue,
  maxInFlight = 1,
  onBatch,
}: GroupCommitOptions<I, O>): GroupCommit<I, O> {
  const queue: Array<Waiting<I, O>> = [];
  /** Batches being written. */
  let inFlight = 0;
  /** A turn of the event loop is awaited before the next batch starts. */
  let starting = false;
  let closed = false;
  const idle: Array<() => void> = [];
  const detached = AsyncResource.bind((fn: () => void) => fn());

  const settle = async (batch: Array<Waiting<I, O>>): Promise<void> => {
    try {
      const results = await write(batch.map((w) => w.item));
      if (results.length !== batch.length) {
        throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
      }
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      // A backing service unavailable (the database, Redis's counters): each item alone would fail the same.
      if (error instanceof HttpError && error.statusCode === 503) {
        for (const w of [...batch, ...queue.splice(0)]) w.reject(error);
      } else if (batch.length > 1) {
        for (const w of batch) await settle([w]);
      } else {
        batch[0]?.reject(error);
      }
    }
  };

  const whenIdle = () => {
    if (inFlight > 0 || starting || queue.length > 0) return;
    for (const resolve of idle.splice(0)) resolve();
  };

  /**
   * Starts the next batch when there is room for one: after one turn of the event loop, so requests
   * whose I/O is waiting get here and join it (on the embedded database every query answers in
   * microtasks, and without this turn a batch and the next would follow each other with no other
   * request ever getting in).
   */
  const startNext = (): void => {
    if (starting || inFlight >= maxInFlight || queue.length === 0) return;
    starting = true;
    setImmediate(() => {
      starting = false;
      if (inFlight >= maxInFlight || queue.length === 0) return whenIdle();
      inFlight += 1;
      const batch = queue.splice(0, maxBatch);
      onBatch?.(batch.length);
      void settle(batch).finally(() => {
        inFlight -= 1;
        startNext();
        whenIdle();
      });
      startNext();
    });
  };

  return {
    waiting: () => queue.length,
    submit(item) {
      if (closed || queue.length >= maxQueue) return Promise.reject(busy());
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        detached(startNext);
      });
    },
    async close() {
      closed = true;
      if (inFlight > 0 || starting || queue.length > 0) {
        await new Promise<void>((resolve) => idle.push(resolve));
      }
    },
  };
}
