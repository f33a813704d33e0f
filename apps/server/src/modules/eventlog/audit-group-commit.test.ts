/**
 * The SPA's audit events are appended by group commit (decision 015): posts arriving together share one
 * INSERT, and a 202 means the row has committed. What a client can see: every 202 is a row, a batch that
 * fails answers each of its posts with an error (and stores none of them), a full queue answers 503 with
 * Retry-After, and a shutdown commits what it had accepted before the database is closed.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { DatabaseUnavailableError, type Db, type Queryable } from '../../platform/db';

/** A database whose audit INSERTs can be held back or failed, and are counted. */
function watched(db: Db) {
  const state = {
    auditInserts: 0,
    /** Whether the nth audit INSERT (from 1) fails as if the database had gone away. */
    fails: (_n: number): boolean => false,
    /** While set, every audit INSERT waits for it. */
    gate: undefined as Promise<void> | undefined,
  };
  const intercept = async (sql: string) => {
    if (!sql.trimStart().startsWith('INSERT INTO audit_event')) return;
    const n = ++state.auditInserts;
    if (state.gate) await state.gate;
    if (state.fails(n)) throw new DatabaseUnavailableError(new Error('test: the database went away'));
  };
  const through = (q: Queryable): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[]) {
      await intercept(sql);
      return q.query<T>(sql, params);
    },
  });
  const wrapped: Db = {
    kind: db.kind,
    ...through(db),
    transaction: (fn) => db.transaction((tx) => fn(through(tx))),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
  /** Holds every audit INSERT until the returned function is called. */
  const hold = () => {
    let release = () => {};
    state.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      state.gate = undefined;
      release();
    };
  };
  return { db: wrapped, state, hold };
}

const waitFor = async (condition: () => Promise<boolean> | boolean, what: string) => {
  const until = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each(databases())('audit events by group commit on $name', ({ open }) => {
  let t: TestContext | undefined;
  let raw: Db | undefined;
  afterEach(async () => {
    await t?.close();
    await raw?.close();
    t = raw = undefined;
  });

  /** The app on a watched copy of the database; each test's session ids are its own (a shared server). */
  const start = async (env: Record<string, string> = {}) => {
    raw = await open();
    const w = watched(raw);
    t = await createTestApp(env, { db: w.db });
    const app = t.app;
    const run = randomUUID();
    const sessionOf = (i: number) => `group-${run}-${i}`;
    /** A pre-login post from its own address (so the per-address limit is not what is tested). */
    const post = (i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/audit',
        remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        payload: {
          sessionId: sessionOf(i),
          eventId: 'Login',
          isSuccess: false,
          failureReason: 'Authentication failure',
          authenticationStatus: 'Unauthenticated',
        },
      });
    /** The sessions of this test that have an audit row, read past the watch. */
    const stored = async () =>
      new Set(
        (
          await raw!.query<{ session_id: string }>(
            'SELECT session_id FROM audit_event WHERE starts_with(session_id, $1)',
            [`group-${run}-`],
          )
        ).rows.map((r) => r.session_id),
      );
    return { ...w, app, post, sessionOf, stored };
  };

  it('answers concurrent posts 202 only once stored, every one a row, in fewer INSERTs than posts', async () => {
    const { post, sessionOf, stored, state } = await start();
    const n = 150;
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => post(i)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(n).fill(202));
    const rows = await stored();
    expect(rows.size).toBe(n);
    for (let i = 0; i < n; i++) expect(rows.has(sessionOf(i))).toBe(true);
    expect(state.auditInserts).toBeGreaterThan(0);
    expect(state.auditInserts).toBeLessThan(n);
  });

  it('answers every post of a failed batch 503 and stores none of them; every 202 is a row', async () => {
    const { post, sessionOf, stored, state } = await start({ AUDIT_BATCH_MAX: '10' });
    state.fails = (n) => n === 2;
    const n = 60;
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => post(i)));
    const rows = await stored();
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    answers.forEach((answer, i) => {
      expect([202, 503]).toContain(answer.statusCode);
      // Acknowledged if and only if stored.
      expect(rows.has(sessionOf(i))).toBe(answer.statusCode === 202);
      if (answer.statusCode === 503) {
        expect(answer.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        expect(answer.headers['retry-after']).toBe('5');
      }
    });
    expect(rows.size).toBe(statuses.filter((s) => s === 202).length);
  });

  it('refuses posts beyond the queue with 503 and Retry-After, storing none of them', async () => {
    const { post, sessionOf, stored, hold, state } = await start({ AUDIT_QUEUE_MAX: '5' });
    const release = hold();
    // The first post is being written (held); the next 20 find room for 5 behind it.
    const first = post(0);
    await waitFor(() => state.auditInserts === 1, 'the first INSERT');
    const rest = Array.from({ length: 20 }, (_, i) => post(i + 1));
    const settled: number[] = [];
    rest.forEach((answer, i) => void answer.then(() => settled.push(i + 1)));
    await waitFor(() => settled.length >= 15, '15 refusals');
    release();
    const answers = [await first, ...(await Promise.all(rest))];
    const refused = answers.filter((a) => a.statusCode === 503);
    expect(refused).toHaveLength(15);
    for (const answer of refused) {
      expect(answer.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    const rows = await stored();
    expect(rows.size).toBe(6);
    answers.forEach((answer, i) => expect(rows.has(sessionOf(i))).toBe(answer.statusCode === 202));
  });

  it('commits every accepted post before close() resolves', async () => {
    const { app, post, sessionOf, stored, hold, state } = await start({ AUDIT_BATCH_MAX: '10' });
    const release = hold();
    const first = post(0);
    await waitFor(() => state.auditInserts === 1, 'the first INSERT');
    const n = 30;
    const rest = Array.from({ length: n - 1 }, (_, i) => post(i + 1));
    // Time for the posts to reach the queue (one still on its way is refused with 503 by the close).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closed = app.close();
    setTimeout(release, 50);
    await closed;
    t = undefined;
    // Read at once: after close() the server closes the database.
    const rows = await stored();
    const answers = [await first, ...(await Promise.all(rest))];
    expect(answers[0]!.statusCode).toBe(202);
    answers.forEach((answer, i) => {
      expect([202, 503]).toContain(answer.statusCode);
      expect(rows.has(sessionOf(i))).toBe(answer.statusCode === 202);
    });
    expect(answers.filter((a) => a.statusCode === 202).length).toBeGreaterThan(n / 2);
  });
});
