/**
 * Housekeeping deletes what is past its time (messages sent over 30 days ago, expired counters, provider
 * rows, one-time codes, sign-in transactions, session and link tokens, the audit trail past its
 * retention) and keeps the rest; it counts and logs what it removed; on PostgreSQL one instance at a
 * time does it. On both databases: the embedded one (a fresh copy), and PostgreSQL when DATABASE_URL
 * is set, in a database of its own made here: a run on the shared test database would delete rows the
 * other test files, each with its own clock, still count.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../app';
import { createTestApp, createTestDb } from '../../test/helpers';
import { migrate, openDb, type Db } from './db';
import { runHousekeeping, type HousekeepingKind } from '../modules';

const DAY = 24 * 60 * 60_000;
const RETENTION_DAYS = 2557;
const NOW = new Date('2031-03-01T12:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

const databaseUrl = process.env.DATABASE_URL;
const created: string[] = [];

/** A new, migrated database on the PostgreSQL server (dropped after the file). */
async function freshPostgres(): Promise<Db> {
  const name = `portal_housekeeping_${randomBytes(6).toString('hex')}`;
  const admin = await openDb({ kind: 'postgres', url: databaseUrl!, max: 1 });
  await admin.exec(`CREATE DATABASE ${name}`);
  await admin.close();
  created.push(name);
  const url = new URL(databaseUrl!);
  url.pathname = `/${name}`;
  const db = await openDb({ kind: 'postgres', url: url.href, max: 4 });
  await migrate(db);
  return db;
}

const urlOf = (name: string) => {
  const url = new URL(databaseUrl!);
  url.pathname = `/${name}`;
  return url.href;
};

afterAll(async () => {
  if (created.length === 0) return;
  const admin = await openDb({ kind: 'postgres', url: databaseUrl!, max: 1 });
  for (const name of created) await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.close();
});

const backends: Array<{ name: string; open: () => Promise<Db> }> = [
  { name: 'pglite', open: createTestDb },
  ...(databaseUrl ? [{ name: 'postgres', open: freshPostgres }] : []),
];

const none: Record<HousekeepingKind, number> = {
  sentMessages: 0,
  outboxMessages: 0,
  rateCounters: 0,
  signInSessions: 0,
  providerRows: 0,
  oneTimeCodes: 0,
  signInTransactions: 0,
  sessionTokens: 0,
  linkTokens: 0,
  reauthentications: 0,
  webauthnChallenges: 0,
  contactChanges: 0,
  knownBrowsers: 0,
  pdfRenditions: 0,
  auditEvents: 0,
  staffSessions: 0,
  staffSignIns: 0,
  shareCodes: 0,
  sharedViews: 0,
};

/** Rows on each side of every limit; answers the ids (or keys) of those that must stay. */
async function insertRows(db: Db, tag: string) {
  const q = (sql: string, params: unknown[]) => db.query<{ id: string }>(sql, params);
  const message = (status: string, createdAt: Date, sentAt: Date | null) =>
    q(
      `INSERT INTO message_queue (created_at, channel, kind, status, next_attempt_at, sent_at)
       VALUES ($1, 'email', $2, $3, $1, $4) RETURNING id`,
      [createdAt, tag, status, sentAt],
    );
  await message('sent', at(-32 * DAY), at(-31 * DAY));
  const kept = {
    messages: [
      (await message('sent', at(-30 * DAY), at(-29 * DAY))).rows[0]!.id,
      (await message('pending', at(-40 * DAY), null)).rows[0]!.id,
      (await message('dead', at(-40 * DAY), null)).rows[0]!.id,
    ],
    outbox: '',
    counters: [] as string[],
    provider: [] as string[],
    transaction: `${tag}-live`,
    sessionToken: `${tag}-session-live`,
    linkToken: `${tag}-link-live`,
    audit: '',
    rendition: '',
    sharedView: randomUUID(),
  };

  const outbox = (createdAt: Date) =>
    q(
      `INSERT INTO outbox_message (created_at, channel, recipient, kind, body) VALUES ($1, 'sms', '07700900000', $2, 'x') RETURNING id`,
      [createdAt, tag],
    );
  await outbox(at(-31 * DAY));
  kept.outbox = (await outbox(at(-DAY))).rows[0]!.id;

  const counter = (expiresAt: Date) =>
    q(`INSERT INTO rate_counter_hit (key, at, expires_at) VALUES ($1, $2, $2) RETURNING id`, [
      `${tag}:k`,
      expiresAt,
    ]);
  for (let i = 0; i < 3; i += 1) await counter(at(-1000 - i));
  kept.counters.push((await counter(at(60_000))).rows[0]!.id);

  const provider = (id: string, expiresAt: Date | null) =>
    q(`INSERT INTO oidc_payload (model, id, payload, expires_at) VALUES ('Session', $1, '{}', $2)`, [
      id,
      expiresAt,
    ]);
  await provider(`${tag}-expired`, at(-2 * DAY));
  for (const [id, expiresAt] of [
    [`${tag}-grace`, at(-60 * 60_000)],
    [`${tag}-forever`, null],
  ] as const) {
    await provider(id, expiresAt);
    kept.provider.push(id);
  }

  // A sign-in session whose grant expired an hour ago: its row goes now, the grant itself a day after.
  // The other's grant lives; the grant expired 2 days ago goes with the provider rows (and its row).
  const grant = (id: string, expiresAt: Date) =>
    q(`INSERT INTO oidc_payload (model, id, payload, expires_at) VALUES ('Grant', $1, '{}', $2)`, [
      id,
      expiresAt,
    ]);
  const signInSession = (grantId: string) =>
    q(
      `INSERT INTO portal_sign_in_session (id, grant_id, account_id, customer_id, started_at, last_used_at)
       VALUES ($1, $2, $3, $3, $4, $4)`,
      [randomUUID(), grantId, `${tag}-user`, at(-DAY)],
    );
  await grant(`${tag}-grant-expired`, at(-60 * 60_000));
  await signInSession(`${tag}-grant-expired`);
  await grant(`${tag}-grant-live`, at(DAY));
  await signInSession(`${tag}-grant-live`);
  await grant(`${tag}-grant-old`, at(-2 * DAY));
  kept.provider.push(`${tag}-grant-expired`, `${tag}-grant-live`);
  await q(
    `INSERT INTO portal_known_browser (customer_id, browser_key, first_seen_at, last_seen_at)
     VALUES ($1, 'Chrome|Windows', $2, $2), ($1, 'Firefox|Linux', $3, $3)`,
    [`${tag}-user`, at(-91 * DAY), at(-89 * DAY)],
  );

  const user = `${tag}-user`;
  await q(
    `INSERT INTO identity_user (id, customer_id, login, status, first_name, last_name, created_at)
     VALUES ($1, $1, $2, 'ACTIVE', 'Test', 'User', $3)`,
    [user, `${tag}@example.co.uk`, at(-100 * DAY)],
  );
  await q(
    `INSERT INTO identity_factor (id, user_id, factor_type, phone_number, is_mobile, created_at)
     VALUES ($1, $2, 'sms', '07700900000', true, $3)`,
    [`${tag}-factor`, user, at(-100 * DAY)],
  );
  const transaction = (id: string, expiresAt: Date) =>
    q(
      `INSERT INTO identity_transaction (id, state_token_hash, user_id, kind, status, created_at, expires_at)
       VALUES ($1, $1, $2, 'signin', 'MFA_CHALLENGE', $3, $3)`,
      [id, user, expiresAt],
    );
  const code = (transactionId: string, expiresAt: Date) =>
    q(
      `INSERT INTO identity_code (transaction_id, factor_id, code_hash, salt, code_length, max_attempts, created_at, expires_at)
       VALUES ($1, $2, 'h', 's', 6, 5, $3, $3) RETURNING id`,
      [transactionId, `${tag}-factor`, expiresAt],
    );
  await transaction(`${tag}-expired`, at(-2 * DAY));
  await code(`${tag}-expired`, at(-2 * DAY));
  await transaction(kept.transaction, at(5 * 60_000));
  const liveCode = (await code(kept.transaction, at(5 * 60_000))).rows[0]!.id;

  await q(
    `INSERT INTO identity_session_token (token_hash, user_id, created_at, expires_at) VALUES ($1, $3, $4, $4), ($2, $3, $5, $5)`,
    [`${tag}-session-old`, kept.sessionToken, user, at(-2 * DAY), at(5 * 60_000)],
  );
  await q(
    `INSERT INTO identity_link_token (token_hash, user_id, kind, created_at, expires_at)
     VALUES ($1, $3, 'recovery', $4, $4), ($2, $3, 'recovery', $5, $5)`,
    [`${tag}-link-old`, kept.linkToken, user, at(-2 * DAY), at(60 * 60_000)],
  );
  await q(
    `INSERT INTO identity_webauthn_challenge (challenge, purpose, user_id, created_at, expires_at)
     VALUES ($1, 'register', $3, $4, $4), ($2, 'register', $3, $5, $5)`,
    [`${tag}-challenge-old`, `${tag}-challenge-live`, user, at(-1000), at(5 * 60_000)],
  );
  await q(
    `INSERT INTO identity_contact_change (id, user_id, kind, new_value, deliverable, code_hash, salt,
       max_attempts, created_at, expires_at)
     VALUES ($1, $3, 'email', 'old@example.com', true, 'h', 's', 5, $4, $4),
            ($2, $3, 'email', 'new@example.com', true, 'h', 's', 5, $5, $5)`,
    [`${tag}-change-old`, `${tag}-change-live`, user, at(-2 * DAY), at(10 * 60_000)],
  );
  await q(
    `INSERT INTO portal_reauthentication (grant_id, account_id, confirmed_until) VALUES ($1, $3, $4), ($2, $3, $5)`,
    [`${tag}-reauth-old`, `${tag}-reauth-live`, user, at(-2 * DAY), at(10 * 60_000)],
  );

  // Staff sessions: one ended two days ago goes, one ended an hour ago and one live stay; a sign-in
  // begun two days ago goes, one begun now stays.
  await q(
    `INSERT INTO staff_session (id_hash, subject, issuer, name, email, roles, csrf_token, created_at,
       last_seen_at, expires_at, ended_at)
     VALUES ($1, 's', 'i', 'n', 'e', '{agent}', 'c', $4, $4, $5, $4),
            ($2, 's', 'i', 'n', 'e', '{agent}', 'c', $6, $6, $5, $6),
            ($3, 's', 'i', 'n', 'e', '{agent}', 'c', $6, $6, $7, NULL)`,
    [
      `${tag}-staff-old`,
      `${tag}-staff-ended`,
      `${tag}-staff-live`,
      at(-2 * DAY),
      at(DAY),
      at(-60 * 60_000),
      at(8 * 60 * 60_000),
    ],
  );
  await q(
    `INSERT INTO staff_sign_in (state, nonce, code_verifier, return_to, created_at)
     VALUES ($1, 'n', 'v', '/staff/', $3), ($2, 'n', 'v', '/staff/', $4)`,
    [`${tag}-sign-in-old`, `${tag}-sign-in-live`, at(-2 * DAY), at(0)],
  );

  // Share codes: one expired a minute ago goes, a live one stays; shared views: one ended two days ago
  // goes, one ended an hour ago stays (kept a day, for the customer's sessions list to settle).
  await q(
    `INSERT INTO portal_share_code (customer_id, code_hash, created_at, expires_at)
     VALUES ($1, 'h', $3, $4), ($2, 'h', $3, $5)`,
    [`${tag}-code-old`, `${tag}-code-live`, at(-11 * 60_000), at(-60_000), at(9 * 60_000)],
  );
  await q(
    `INSERT INTO portal_shared_view (id, customer_id, staff_subject, staff_name, reason, created_at, expires_at)
     VALUES ($1, $3, 's', 'n', 'r', $4, $4), ($2, $3, 's', 'n', 'r', $5, $5)`,
    [randomUUID(), kept.sharedView, `${tag}-customer`, at(-2 * DAY), at(-60 * 60_000)],
  );

  // Drawn PDFs: one drawn 91 days ago goes, one drawn 89 days ago stays.
  const hash = (suffix: string) => createHash('sha256').update(`${tag}-${suffix}`).digest('hex');
  kept.rendition = hash('recent');
  await q(
    `INSERT INTO document_rendition (content_hash, pdf, created_at) VALUES ($1, $3, $4), ($2, $3, $5)`,
    [hash('old'), kept.rendition, Buffer.from('%PDF-1.7'), at(-91 * DAY), at(-89 * DAY)],
  );

  const audit = (occurredAt: Date) =>
    q(
      `INSERT INTO audit_event (occurred_at, source, event_id, session_id) VALUES ($1, 'server', 'test.housekeeping', $2) RETURNING id`,
      [occurredAt, tag],
    );
  await audit(at(-RETENTION_DAYS * DAY - 60 * 60_000));
  await audit(at(-3000 * DAY));
  kept.audit = (await audit(at(-(RETENTION_DAYS - 1) * DAY))).rows[0]!.id;
  return { ...kept, liveCode };
}

const count = async (db: Db, sql: string, params: unknown[]) =>
  Number((await db.query<{ n: number }>(sql, params)).rows[0]!.n);

describe.each(backends)('housekeeping on $name', ({ name, open }) => {
  it('deletes rows past their time in batches, keeps the rest, and counts what it removed', async () => {
    const db = await open();
    try {
      // Whatever the seed left that is past its time by NOW goes first, so the counts below are exact.
      await runHousekeeping(db, NOW, { auditRetentionDays: RETENTION_DAYS });
      const tag = `hk-${randomUUID()}`;
      const kept = await insertRows(db, tag);

      const run = await runHousekeeping(db, NOW, { auditRetentionDays: RETENTION_DAYS, batchSize: 2 });
      expect(run).toEqual({
        ran: true,
        removed: {
          sentMessages: 1,
          outboxMessages: 1,
          rateCounters: 3,
          signInSessions: 1,
          providerRows: 2,
          oneTimeCodes: 1,
          signInTransactions: 1,
          sessionTokens: 1,
          linkTokens: 1,
          reauthentications: 1,
          webauthnChallenges: 1,
          contactChanges: 1,
          knownBrowsers: 1,
          pdfRenditions: 1,
          auditEvents: 2,
          staffSessions: 1,
          staffSignIns: 1,
          shareCodes: 1,
          sharedViews: 1,
        },
      });

      const ids = async (sql: string, params: unknown[]) =>
        (await db.query<{ id: string }>(sql, params)).rows.map((r) => String(r.id)).sort();
      expect(await ids('SELECT id FROM message_queue WHERE kind = $1', [tag])).toEqual(
        kept.messages.map(String).sort(),
      );
      expect(await ids('SELECT id FROM outbox_message WHERE kind = $1', [tag])).toEqual([
        String(kept.outbox),
      ]);
      expect(await ids('SELECT id FROM rate_counter_hit WHERE key = $1', [`${tag}:k`])).toEqual(
        kept.counters.map(String),
      );
      expect(await ids(`SELECT id FROM oidc_payload WHERE id LIKE $1`, [`${tag}-%`])).toEqual(
        [...kept.provider].sort(),
      );
      expect(await ids('SELECT id FROM identity_transaction WHERE user_id = $1', [`${tag}-user`])).toEqual([
        kept.transaction,
      ]);
      expect(await ids('SELECT c.id FROM identity_code c WHERE factor_id = $1', [`${tag}-factor`])).toEqual([
        String(kept.liveCode),
      ]);
      expect(
        await ids('SELECT token_hash AS id FROM identity_session_token WHERE user_id = $1', [`${tag}-user`]),
      ).toEqual([kept.sessionToken]);
      expect(
        await ids('SELECT token_hash AS id FROM identity_link_token WHERE user_id = $1', [`${tag}-user`]),
      ).toEqual([kept.linkToken]);
      expect(
        await ids('SELECT challenge AS id FROM identity_webauthn_challenge WHERE user_id = $1', [
          `${tag}-user`,
        ]),
      ).toEqual([`${tag}-challenge-live`]);
      expect(await ids('SELECT id FROM identity_contact_change WHERE user_id = $1', [`${tag}-user`])).toEqual(
        [`${tag}-change-live`],
      );
      expect(
        await ids('SELECT id_hash AS id FROM staff_session WHERE id_hash LIKE $1', [`${tag}-%`]),
      ).toEqual([`${tag}-staff-ended`, `${tag}-staff-live`]);
      expect(await ids('SELECT state AS id FROM staff_sign_in WHERE state LIKE $1', [`${tag}-%`])).toEqual([
        `${tag}-sign-in-live`,
      ]);
      expect(
        await ids('SELECT customer_id AS id FROM portal_share_code WHERE customer_id LIKE $1', [`${tag}-%`]),
      ).toEqual([`${tag}-code-live`]);
      expect(
        await ids('SELECT id FROM portal_shared_view WHERE customer_id = $1', [`${tag}-customer`]),
      ).toEqual([kept.sharedView]);
      expect(
        await ids('SELECT grant_id AS id FROM portal_reauthentication WHERE account_id = $1', [
          `${tag}-user`,
        ]),
      ).toEqual([`${tag}-reauth-live`]);
      expect(
        await ids('SELECT content_hash AS id FROM document_rendition WHERE content_hash = ANY($1)', [
          [kept.rendition, createHash('sha256').update(`${tag}-old`).digest('hex')],
        ]),
      ).toEqual([kept.rendition]);
      expect(await ids('SELECT id FROM audit_event WHERE session_id = $1', [tag])).toEqual([
        String(kept.audit),
      ]);

      // Nothing more to do: a second run removes nothing.
      expect(await runHousekeeping(db, NOW, { auditRetentionDays: RETENTION_DAYS })).toEqual({
        ran: true,
        removed: none,
      });
    } finally {
      await db.close();
    }
  }, 120_000);

  it('leaves the audit trail append-only for everything within retention', async () => {
    const db = await open();
    try {
      const tag = `hk-${randomUUID()}`;
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO audit_event (occurred_at, source, event_id, session_id) VALUES ($1, 'server', 'test.housekeeping', $2) RETURNING id`,
        [at(-DAY), tag],
      );
      const id = rows[0]!.id;
      await expect(db.query('DELETE FROM audit_event WHERE id = $1', [id])).rejects.toThrow(/append-only/);
      await expect(
        db.transaction(async (tx) => {
          await tx.query("SELECT set_config('portal.audit_retain_after', $1, true)", [
            at(-2 * DAY).toISOString(),
          ]);
          await tx.query('DELETE FROM audit_event WHERE id = $1', [id]);
        }),
      ).rejects.toThrow(/append-only/);
      await expect(db.query('UPDATE audit_event SET event_id = $2 WHERE id = $1', [id, 'x'])).rejects.toThrow(
        /append-only/,
      );
      expect(await count(db, 'SELECT count(*)::int AS n FROM audit_event WHERE session_id = $1', [tag])).toBe(
        1,
      );
    } finally {
      await db.close();
    }
  }, 60_000);

  it.skipIf(name !== 'pglite')(
    'runs on its own when the app is ready, logs one line of counts, and stops with the app',
    async () => {
      let log = '';
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          log += chunk.toString();
          done();
        },
      });
      const t = await createTestApp(
        { HOUSEKEEPING_INTERVAL_MINUTES: '60', LOG_LEVEL: 'info', METRICS_PUBLIC_PATH: '/metrics' },
        { logger: (config) => ({ ...loggerOptions(config), stream }) },
      );
      const housekeepingLines = () =>
        log
          .split('\n')
          .filter((line) => line.includes('housekeeping'))
          .map((line) => JSON.parse(line) as { level: number; msg: string; removed: Record<string, number> });
      let removed: Record<string, number>;
      try {
        await expect.poll(() => housekeepingLines().length, { timeout: 10_000 }).toBe(1);
        const [line] = housekeepingLines();
        expect(line).toMatchObject({ level: 30 });
        expect(line!.msg).toMatch(/^housekeeping: removed \d+ rows$/);
        removed = line!.removed;
        expect(Object.keys(removed)).toContain('auditEvents');
        // The same counts in the metrics, by kind.
        const scraped = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
        for (const [kind, count] of Object.entries(removed)) {
          expect(scraped).toContain(`portal_housekeeping_removed_total{kind="${kind}"} ${count}`);
        }
      } finally {
        await t.close();
      }
      // Nothing ran after the app closed.
      expect(housekeepingLines()).toHaveLength(1);
    },
    60_000,
  );
});

describe.skipIf(!databaseUrl)('housekeeping on PostgreSQL with several instances', () => {
  it('is done by one instance at a time: the others skip while it holds the lock', async () => {
    const first = await freshPostgres();
    const name = created.at(-1)!;
    const second = await openDb({ kind: 'postgres', url: urlOf(name), max: 4 });
    const third = await openDb({ kind: 'postgres', url: urlOf(name), max: 4 });
    try {
      await first.query(
        `INSERT INTO rate_counter_hit (key, at, expires_at)
         SELECT 'hk:' || g, $1::timestamptz, $1::timestamptz FROM generate_series(1, 300) AS g`,
        [at(-1000)],
      );
      // Two schedulers at once: one does all the work, the other skips.
      const runs = await Promise.all(
        [first, second].map((db) =>
          runHousekeeping(db, NOW, { auditRetentionDays: RETENTION_DAYS, batchSize: 10 }),
        ),
      );
      expect(runs.map((r) => r.ran).sort()).toEqual([false, true]);
      expect(runs.find((r) => r.ran)!.removed.rateCounters).toBe(300);
      expect(runs.find((r) => !r.ran)!.removed).toEqual(none);

      // While another instance holds the lock (here, by hand), a run skips and deletes nothing.
      await first.query(`INSERT INTO rate_counter_hit (key, at, expires_at) VALUES ('hk:held', $1, $1)`, [
        at(-1000),
      ]);
      await first.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(727277)');
        const skipped = await runHousekeeping(third, NOW, { auditRetentionDays: RETENTION_DAYS });
        expect(skipped).toEqual({ ran: false, removed: none });
      });
      expect(
        await count(first, "SELECT count(*)::int AS n FROM rate_counter_hit WHERE key = 'hk:held'", []),
      ).toBe(1);
      // Once it is free, the next run does the work.
      expect(
        (await runHousekeeping(third, NOW, { auditRetentionDays: RETENTION_DAYS })).removed.rateCounters,
      ).toBe(1);
    } finally {
      await Promise.all([first.close(), second.close(), third.close()]);
    }
  }, 120_000);
});
