import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

/** A writer whose batches commit when the test says so. */
function controlledWriter() {
  const batches: Array<{ items: number[]; commit: () => void }> = [];
  const write = (items: number[]) =>
    new Promise<number[]>((resolve) => {
      batches.push({ items, commit: () => resolve(items.map((i) => i * 10)) });
    });
  return { batches, write };
}

/** Two turns of the event loop: the queue takes one before each batch, after its own bookkeeping. */
const turn = async () => {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};
const settled = async <T>(promise: Promise<T>) => {
  let done = false;
  void promise.then(() => (done = true));
  await turn();
  return done;
};

describe('group commit', () => {
  it('with one batch in flight, items submitted while it is written wait and go together in the next', async () => {
    const { batches, write } = controlledWriter();
    const queue = groupCommit({ write, maxBatch: 100, maxQueue: 100 });
    const first = queue.submit(1);
    await turn();
    const later = [queue.submit(2), queue.submit(3)];
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]!.commit();
    expect(await first).toBe(10);
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
    batches[1]!.commit();
    expect(await Promise.all(later)).toEqual([20, 30]);
  });

  it('with two in flight, a second batch is written beside the first, and each item is answered when its own commits', async () => {
    const { batches, write } = controlledWriter();
    const queue = groupCommit({ write, maxBatch: 100, maxQueue: 100, maxInFlight: 2 });
    const first = queue.submit(1);
    await turn();
    const second = queue.submit(2);
    await turn();
    const third = queue.submit(3);
    await turn();
    // Two batches being written; the third item waits for room.
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    batches[1]!.commit();
    expect(await second).toBe(20);
    expect(await settled(first)).toBe(false);
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [2], [3]]);
    batches[0]!.commit();
    batches[2]!.commit();
    expect(await Promise.all([first, third])).toEqual([10, 30]);
  });

  it('close() waits for every batch in flight and refuses new items', async () => {
    const { batches, write } = controlledWriter();
    const queue = groupCommit({ write, maxBatch: 100, maxQueue: 100, maxInFlight: 2 });
    const items = [queue.submit(1)];
    await turn();
    items.push(queue.submit(2));
    await turn();
    const closed = queue.close();
    await expect(queue.submit(3)).rejects.toMatchObject({ statusCode: 503 });
    batches[0]!.commit();
    expect(await settled(closed)).toBe(false);
    batches[1]!.commit();
    await closed;
    expect(await Promise.all(items)).toEqual([10, 20]);
  });
});
