import type { ActivityItem, ActivityPage } from '@portal/contracts/account-activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { writeAudit, type AuditRow } from '../../platform/audit';
import { activitySql } from './activity';

/*
 * "Your account activity" (issue 26 point 4, decision 027) on both databases. The test clock starts after
 * the newest of Joan's audit rows, so what this run writes is newer than her seeded demo history and than
 * anything an earlier run left in a shared PostgreSQL database (the trail is append-only); each check
 * reads only the newest items, which are this run's.
 */
const JOAN = 'joan.whitfield@example.co.uk';
const THOMAS = 'C1000009';
const MINUTE = 60_000;

describe.each(databases())('account activity on $name', ({ open }) => {
  let t: TestContext;
  let joan: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    const newest = await t.db.query<{ at: Date | null }>(
      `SELECT max(occurred_at) AS at FROM audit_event WHERE customer_id = 'C1000015'`,
    );
    t.clock.set(new Date(Math.max(Date.now(), (newest.rows[0]?.at?.getTime() ?? 0) + 5 * MINUTE)));
    joan = await signIn(t, JOAN);
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  const list = (who: SignedIn | null, query = '', customerId = who?.customerId ?? 'C1000015') =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/account-activity/${customerId}${query}`,
      headers: who ? { authorization: who.authorization } : {},
    });
  const page = async (query = '') => {
    const res = await list(joan, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ActivityPage>();
  };
  /** A server row, `minutes` after the test clock's time (later than anything seeded or signed in). The
   * clock itself stays, so the access token does. */
  const row = (minutes: number, r: Partial<AuditRow> & { eventId: string }) =>
    writeAudit(t.db, {
      source: 'server',
      customerId: joan.customerId,
      sessionId: 'sess-activity-test',
      correlationId: 'corr-activity-test',
      isSuccess: true,
      occurredAt: new Date(t.clock.now().getTime() + minutes * MINUTE),
      ...r,
    });

  it("lists the sign-in's own events newest first, in plain words: the sign-in, then the code sent (masked)", async () => {
    const { items, nextCursor } = await page();
    expect(items.slice(0, 2)).toEqual([
      { at: expect.any(String), kind: 'signed-in', method: 'text' },
      { at: expect.any(String), kind: 'code-sent', method: 'text', destination: '+44 XXXX XXX432' },
    ]);
    expect(Date.parse(items[0]!.at)).toBeGreaterThanOrEqual(Date.parse(items[1]!.at));
    // Joan's seeded history (and on PostgreSQL earlier runs) lie below: more than a page.
    expect(nextCursor).toEqual(expect.any(String));
  });

  it("shows only the customer's own security and consent events, none of another customer's, an agent's or the insurer's", async () => {
    // Shown.
    await row(1, {
      eventId: 'preferences.marketing.updated',
      onBehalfOf: joan.customerId,
      details: { marketingChannels: 'email,post', marketingConsent: false, changedChannels: ['post'] },
    });
    await row(2, {
      eventId: 'preferences.correspondence.updated',
      onBehalfOf: joan.customerId,
      details: { correspondencePreference: 'paper', previousCorrespondencePreference: 'paperless' },
    });
    await row(3, {
      eventId: 'contact.sent',
      onBehalfOf: joan.customerId,
      details: { messageId: 'msg-secret-id-77', productType: 'PHL', messageType: 'ChangeAddress' },
    });
    await row(4, { eventId: 'identity.password.set', details: { purpose: 'change' } });
    await row(5, {
      eventId: 'identity.factor.app-added',
      details: { factorType: 'totp', factorId: 'aut9secret' },
    });
    await row(6, {
      eventId: 'identity.lockout',
      failureReason: 'PASSWORD_FAILURES',
      details: { lockedUntil: '2030-01-01T10:30:00.000Z', failures: 10 },
    });
    await row(7, { eventId: 'identity.signin', isSuccess: false, failureReason: 'WRONG_PASSWORD' });
    await row(8, {
      eventId: 'session.ended',
      details: { scope: 'others', count: 2, sessionIds: ['s1', 's2'] },
    });
    await row(9, { eventId: 'profile.email.changed', details: { email: 'joan.new@example.org' } });
    await row(10, {
      eventId: 'identity.signin',
      details: {
        mfaSendMethod: 'webauthn',
        passwordless: true,
        factorId: 'pky1',
        browser: 'Firefox',
        os: 'Linux',
      },
    });
    // Left out: the SPA's own row, the OpenID step, an agent's change, the insurer's systems, a failed
    // password rule, a notification dismissed, an unknown user, and another customer's sign-in.
    await row(11, {
      source: 'client',
      eventId: 'preferences.marketing.updated',
      details: { marketingConsent: true },
    });
    await row(12, { eventId: 'oidc.authorize', onBehalfOf: joan.customerId });
    await row(13, {
      eventId: 'preferences.marketing.updated',
      onBehalfOf: 'agent:4711',
      details: { marketingChannels: 'phone' },
    });
    await row(14, { eventId: 'integration.customer.updated', onBehalfOf: 'client:insurer' });
    await row(15, {
      eventId: 'identity.password.set',
      isSuccess: false,
      failureReason: 'PASSWORD_POLICY',
      details: { purpose: 'change' },
    });
    await row(16, {
      eventId: 'notification.read',
      onBehalfOf: joan.customerId,
      details: { notificationId: 'n1' },
    });
    await row(17, { eventId: 'identity.signin', isSuccess: false, failureReason: 'NOT_ACTIVE' });
    await row(18, { eventId: 'identity.signin', customerId: THOMAS });
    await row(19, { eventId: 'identity.activation', isSuccess: false, failureReason: 'INVALID_TOKEN' });

    const res = await list(joan, '?pageSize=10');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { items } = res.json<ActivityPage>();
    const at = (minutes: number) => new Date(t.clock.now().getTime() + minutes * MINUTE).toISOString();
    expect(items).toEqual<ActivityItem[]>([
      { at: at(10), kind: 'signed-in', method: 'passkey', browser: 'Firefox on Linux' },
      { at: at(9), kind: 'email-changed', destination: 'j•••@example.org' },
      { at: at(8), kind: 'sessions-ended', scope: 'others', count: 2 },
      { at: at(7), kind: 'sign-in-wrong-password' },
      { at: at(6), kind: 'account-locked', until: '2030-01-01T10:30:00.000Z' },
      { at: at(5), kind: 'method-added', method: 'authenticator-app' },
      { at: at(4), kind: 'password-changed' },
      { at: at(3), kind: 'contact-message-sent', about: 'PHL' },
      { at: at(2), kind: 'paperless-choice', paperless: false },
      { at: at(1), kind: 'marketing-choice', channels: ['email', 'post'] },
    ]);
    // No id of any kind, no correlation or session id, nobody else's data, no full address or number.
    const text = res.body;
    for (const secret of [
      'msg-secret-id-77',
      'aut9secret',
      'pky1',
      'corr-activity-test',
      'sess-activity-test',
      'agent',
      THOMAS,
      'C1000015',
      'joan.new',
      '07700900432',
      'ChangeAddress',
    ]) {
      expect(text).not.toContain(secret);
    }

    // Another customer's list has none of Joan's rows; Joan's path with Thomas's id is 404.
    expect((await list(joan, '', THOMAS)).statusCode).toBe(404);
    expect((await list(null)).statusCode).toBe(401);
  });

  it('tells the customer of the document notices emailed or texted to them, of those that could not be, and of their choice (issue 40)', async () => {
    // Later than the rows of the test before, earlier than the paging test's.
    await row(30, { eventId: 'document.notice.sent', details: { documents: 2, channel: 'email' } });
    await row(31, {
      eventId: 'document.notice.failed',
      isSuccess: false,
      failureReason: 'refused',
      details: { documents: 2, channel: 'email' },
    });
    // The customer chose texts too: the choice, a text sent and one not delivered.
    await row(32, {
      eventId: 'preferences.notices.updated',
      details: { noticeEmail: true, noticeText: true },
    });
    await row(33, { eventId: 'document.notice.sent', details: { documents: 1, channel: 'sms' } });
    await row(34, {
      eventId: 'document.notice.failed',
      isSuccess: false,
      failureReason: 'gave-up',
      details: { documents: 1, channel: 'sms' },
    });
    const { items } = await page('?pageSize=5');
    const at = (minutes: number) => new Date(t.clock.now().getTime() + minutes * MINUTE).toISOString();
    expect(items).toEqual<ActivityItem[]>([
      { at: at(34), kind: 'document-notice-text-failed' },
      { at: at(33), kind: 'document-notice-texted' },
      { at: at(32), kind: 'notice-choice' },
      { at: at(31), kind: 'document-notice-failed' },
      { at: at(30), kind: 'document-notice-sent' },
    ]);
  });

  it("tells the customer what the insurer's contact centre did for them, in its own words, never who or why (issue 41)", async () => {
    // Later than the rows of the tests before, earlier than the paging test's.
    const staff = 'staff:agent-7731';
    const why = { reason: 'Call ref 1234 about Joan' };
    await row(40, { eventId: 'identity.unlock', onBehalfOf: staff, details: why });
    await row(41, { eventId: 'identity.activation.issued', onBehalfOf: staff, details: why });
    await row(42, {
      eventId: 'session.ended',
      onBehalfOf: staff,
      details: { scope: 'all', count: 3, ...why },
    });
    await row(43, {
      eventId: 'identity.factor.app-removed',
      onBehalfOf: staff,
      details: { factorType: 'totp', factorId: 'ost-secret-9', ...why },
    });
    await row(44, { eventId: 'identity.factor.passkey-removed', onBehalfOf: staff, details: why });
    await row(45, { eventId: 'identity.factor.backup-codes-removed', onBehalfOf: staff, details: why });
    await row(46, {
      eventId: 'profile.email.changed',
      onBehalfOf: staff,
      details: { from: 'j***@example.co.uk', to: 'j***@example.org', ...why },
    });
    // Left out: a staff row of an event the customer is not told of, a refused one, the customer's own
    // activation email (only the contact centre's is news), and the insurer's systems' rows.
    await row(47, { eventId: 'staff.customer.opened', onBehalfOf: staff, details: why });
    await row(48, { eventId: 'identity.unlock', onBehalfOf: staff, isSuccess: false, details: why });
    await row(49, { eventId: 'identity.activation.issued', details: { factors: [] } });
    await row(50, { eventId: 'identity.unlock', onBehalfOf: 'client:insurer' });
    await row(51, {
      eventId: 'profile.email.changed',
      onBehalfOf: 'client:insurer',
      details: { to: 'x@y.z' },
    });

    const res = await list(joan, '?pageSize=7');
    expect(res.statusCode).toBe(200);
    const at = (minutes: number) => new Date(t.clock.now().getTime() + minutes * MINUTE).toISOString();
    expect(res.json<ActivityPage>().items).toEqual<ActivityItem[]>([
      { at: at(46), kind: 'contact-centre-email-changed', destination: 'j•••@example.org' },
      { at: at(45), kind: 'contact-centre-method-removed', method: 'backup-codes' },
      { at: at(44), kind: 'contact-centre-method-removed', method: 'passkey' },
      { at: at(43), kind: 'contact-centre-method-removed', method: 'authenticator-app' },
      { at: at(42), kind: 'contact-centre-signed-out', count: 3 },
      { at: at(41), kind: 'contact-centre-activation-sent' },
      { at: at(40), kind: 'contact-centre-unlocked' },
    ]);
    for (const secret of ['agent-7731', 'staff', 'Call ref', 'ost-secret-9'])
      expect(res.body).not.toContain(secret);
  });

  it('pages newest first with the cursor: every item once, ties and microseconds kept apart', async () => {
    // Later than the rows of the test before.
    const base = t.clock.now().getTime() + 60 * MINUTE;
    // 45 sign-ins: groups of five at one instant (the ties are ordered by id), each group 1 ms after
    // the last, and five rows microseconds apart within one millisecond.
    const expected: string[] = [];
    for (let i = 0; i < 40; i++) {
      const at = new Date(base + Math.floor(i / 5));
      await writeAudit(t.db, {
        source: 'server',
        eventId: 'identity.mfa.sent',
        customerId: joan.customerId,
        isSuccess: true,
        occurredAt: at,
        details: { mfaSendMethod: 'sms', phoneNumber: `+44 XXXX XXX${String(100 + i)}` },
      });
      expected.push(`+44 XXXX XXX${100 + i}`);
    }
    for (let i = 0; i < 5; i++) {
      await t.db.query(
        `INSERT INTO audit_event (occurred_at, source, event_id, customer_id, is_success, details)
         VALUES ($1::timestamptz + make_interval(secs => $2::double precision / 1000000), 'server',
           'identity.mfa.sent', $3, true, $4::jsonb)`,
        [
          new Date(base + 8),
          // Out of id order: the later instant is written first.
          500 - i * 100,
          joan.customerId,
          JSON.stringify({ mfaSendMethod: 'call', phoneNumber: `+44 XXXX XXX${900 + i}` }),
        ],
      );
    }
    // Newest first: the microsecond rows (lowest offset last), then the groups from the last, ties by id desc.
    const newestFirst = [...[0, 1, 2, 3, 4].map((i) => `+44 XXXX XXX${900 + i}`), ...expected.reverse()];

    const seen: ActivityItem[] = [];
    let cursor: string | null = null;
    let pages = 0;
    while (seen.length < newestFirst.length) {
      const next: ActivityPage = await page(`?pageSize=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.items.length).toBe(7);
      seen.push(...next.items);
      cursor = next.nextCursor;
      expect(cursor).not.toBeNull();
      pages += 1;
    }
    expect(pages).toBe(7);
    expect(seen.slice(0, newestFirst.length).map((i) => i.destination)).toEqual(newestFirst);
    for (let i = 1; i < seen.length; i++) {
      expect(Date.parse(seen[i - 1]!.at)).toBeGreaterThanOrEqual(Date.parse(seen[i]!.at));
    }
  });

  it('fills a page past rows the customer does not see (failed password rules), reading on from where it stopped', async () => {
    // Later than the rows of the tests before.
    const minutes = 120;
    await row(minutes, {
      eventId: 'preferences.correspondence.updated',
      details: { correspondencePreference: 'paperless' },
    });
    await row(minutes + 1, { eventId: 'identity.password.set', details: { purpose: 'change' } });
    for (let i = 0; i < 9; i++) {
      await row(minutes + 2 + i / 10, {
        eventId: 'identity.password.set',
        isSuccess: false,
        failureReason: 'PASSWORD_POLICY',
        details: { purpose: 'change' },
      });
    }
    await row(minutes + 3, { eventId: 'identity.password.reset.requested', details: { link: 'recovery' } });
    const first = await page('?pageSize=2');
    expect(first.items.map((i) => i.kind)).toEqual(['password-reset-requested', 'password-changed']);
    const second = await page(`?pageSize=1&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.kind)).toEqual(['paperless-choice']);
  });

  it('refuses a cursor that is not one of ours and a page size out of range with 400, in the envelope', async () => {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
    for (const query of [
      '?cursor=abc',
      `?cursor=${b64('2026-11-21T10:00:00.000000Z')}`,
      `?cursor=${b64('2026-11-21T10:00:00.000000Z|12|3')}`,
      `?cursor=${b64('2026-13-45T10:00:00.000000Z|12')}`,
      `?cursor=${b64('2026-11-21T10:00:00Z|12')}`,
      `?cursor=${b64("2026-11-21T10:00:00.000000Z|1' OR '1'='1")}`,
      `?cursor=${b64('2026-11-21T10:00:00.000000Z|99999999999999999999')}`,
      '?cursor=not%20base64!',
      `?cursor=${'A'.repeat(201)}`,
      '?pageSize=0',
      '?pageSize=51',
      '?pageSize=ten',
    ]) {
      const res = await list(joan, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });

  it('reads the index in its order on PostgreSQL: no sort, no scan of the whole trail', async () => {
    if (t.db.kind !== 'postgres') return;
    // A small test table's statistics can make any plan look cheap; with sorting ruled out, the plan shows
    // the index gives the rows in the list's order (the bench and decision 027 show the chosen plan on
    // 10,000 rows).
    const text = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_sort = off');
      const plan = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${activitySql(true)}`, [
        joan.customerId,
        21,
        '2030-01-01T00:00:00.000000Z',
        '1',
      ]);
      return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(text).toContain('Index Scan using audit_event_activity_idx');
    expect(text).not.toMatch(/Sort|Seq Scan/);
  });
});
