import { randomUUID } from 'node:crypto';
import type { ActivityPage } from '@portal/contracts/account-activity';
import type { StaffCustomerView, StaffSearchResponse } from '@portal/contracts/staff';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { outbox, post } from '../../../test/identity-support';
import { signInAccount, type SignedIn } from '../../../test/sign-in';
import { createRunCustomer, eraseRunCustomers, type RunCustomer } from '../../../test/staff-customers';
import { staffConsole, staffOf, type StaffConsole } from '../../../test/staff-sign-in';
import { writeAudit } from '../../platform/audit';
import { metricsOf } from '../../platform/metrics';

/*
 * Issue 41 points 2-5: the contact centre finds a customer with a reason, sees their state at a glance,
 * helps them (each action audited on their behalf, shown in their own account activity, emailed where it
 * touches their security) and an auditor reads their trail. On the embedded database and on PostgreSQL
 * when DATABASE_URL is set. Margaret (C1000001) is only read: customers locked, signed out or changed are
 * the test's own (test/staff-customers.ts), as other tests sign the demo customers in on a shared database.
 */

const MARGARET = 'C1000001';
const REASON = 'Call ref 4471-A';

describe.each(databases())('the contact centre finds and helps customers on $name', ({ open }) => {
  let t: TestContext;
  let agent: StaffConsole;
  let senior: StaffConsole;
  let auditor: StaffConsole;
  const made: RunCustomer[] = [];

  beforeAll(async () => {
    // Counters of this run's own (the two databases' apps share one Redis, and their clocks one start).
    t = await createTestApp({ REDIS_KEY_PREFIX: `test-${randomUUID()}:` }, { db: await open() });
    agent = await staffConsole(t.app, staffOf.agent);
    senior = await staffConsole(t.app, staffOf['senior-agent']);
    auditor = await staffConsole(t.app, staffOf.auditor);
  });
  // Each test starts with live console sessions: a test before may have moved the clock past their idle end.
  beforeEach(async () => {
    const live = async (who: StaffConsole, as: { email: string }) => {
      const me = await t.app.inject({
        method: 'GET',
        url: '/staff/api/session',
        headers: { cookie: who.jar.header() },
      });
      return me.statusCode === 200 ? who : staffConsole(t.app, as);
    };
    agent = await live(agent, staffOf.agent);
    senior = await live(senior, staffOf['senior-agent']);
    auditor = await live(auditor, staffOf.auditor);
  });
  afterAll(async () => {
    await eraseRunCustomers(t, made);
    await t.close();
    await t.db.close();
  });

  const customer = async (options: Parameters<typeof createRunCustomer>[1] = {}) => {
    const c = await createRunCustomer(t, options);
    made.push(c);
    return c;
  };
  const search = (who: StaffConsole, query: object, body: object = { reason: REASON }) =>
    who.post('/staff/api/customers/search', { ...body, query });
  const found = async (query: object) => {
    const res = await search(agent, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<StaffSearchResponse>().results;
  };
  const act = (who: StaffConsole, customerId: string, action: string, body: object = {}) =>
    who.post(`/staff/api/customers/${customerId}/${action}`, { reason: REASON, ...body });
  const opened = async (customerId: string, who = agent) => {
    const res = await act(who, customerId, 'open');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<StaffCustomerView>();
  };
  /** The customer's newest audit rows of `eventId`. */
  const auditRows = async (customerId: string | null, eventId: string) =>
    (
      await t.db.query<{
        customer_id: string | null;
        on_behalf_of: string | null;
        is_success: boolean | null;
        failure_reason: string | null;
        details: Record<string, unknown>;
      }>(
        `SELECT customer_id, on_behalf_of, is_success, failure_reason, details FROM audit_event
         WHERE customer_id IS NOT DISTINCT FROM $1 AND event_id = $2 AND correlation_id IS NOT NULL
         ORDER BY id DESC LIMIT 20`,
        [customerId, eventId],
      )
    ).rows;
  /** The customer's own account activity, read as they read it. */
  const activityOf = async (who: SignedIn) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/account-activity/${who.customerId}?pageSize=10`,
      headers: { authorization: who.authorization },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ActivityPage>().items;
  };
  const signInAs = (c: RunCustomer, email = c.email) => signInAccount(t, { ...c, email });
  /** Ten wrong passwords, a second apart (under the per-name limit): the account locks. */
  const lock = async (c: RunCustomer) => {
    for (let i = 0; i < 10; i++) {
      t.clock.advance(1000);
      expect(
        (await post(t.app, '/api/v1/authn', { username: c.email, password: 'not-the-password' })).statusCode,
      ).toBe(401);
    }
  };

  describe('search (point 3)', () => {
    it('finds Margaret by customer id, email, policy number, and surname with date of birth and postcode', async () => {
      const margaret = {
        customerId: MARGARET,
        name: 'Mrs Margaret Thompson',
        postcodeStart: 'HR8 2',
        onlineAccount: 'active',
      };
      expect(await found({ by: 'customerId', customerId: MARGARET })).toEqual([margaret]);
      expect(await found({ by: 'email', email: '  Margaret.Thompson@Example.co.uk ' })).toEqual([margaret]);
      expect(await found({ by: 'policyNumber', policyNumber: '102x4567891' })).toEqual([margaret]);
      expect(
        await found({
          by: 'nameAndBirth',
          surname: ' tHOMP son ',
          dateOfBirth: '1952-04-17',
          postcode: 'hr82ab',
        }),
      ).toEqual([margaret]);
      // All three must match.
      for (const wrong of [
        { surname: 'Thomson', dateOfBirth: '1952-04-17', postcode: 'HR8 2AB' },
        { surname: 'Thompson', dateOfBirth: '1952-04-18', postcode: 'HR8 2AB' },
        { surname: 'Thompson', dateOfBirth: '1952-04-17', postcode: 'HR8 2AC' },
      ]) {
        expect(await found({ by: 'nameAndBirth', ...wrong })).toEqual([]);
      }
      expect(await found({ by: 'customerId', customerId: 'C0000000' })).toEqual([]);
      expect(await found({ by: 'email', email: 'nobody-at-all@example.org' })).toEqual([]);
      expect(await found({ by: 'policyNumber', policyNumber: '999X9999999' })).toEqual([]);
    });

    it('finds a customer waiting for activation, and one without an online account, and says which', async () => {
      const pending = await customer({ account: 'pending' });
      const none = await customer({ account: 'none' });
      expect(await found({ by: 'email', email: pending.email })).toMatchObject([
        { customerId: pending.customerId, onlineAccount: 'pending', postcodeStart: 'TR21 0' },
      ]);
      expect(await found({ by: 'customerId', customerId: none.customerId })).toMatchObject([
        { customerId: none.customerId, name: `Ms Testa ${none.lastName}`, onlineAccount: 'none' },
      ]);
    });

    it('finds at most 10', async () => {
      const lastName = `Namesake ${randomUUID()
        .replace(/[^a-f]/g, '')
        .slice(0, 8)}`;
      for (let i = 0; i < 11; i++)
        await customer({ lastName, dateOfBirth: '1966-01-02', postCode: 'TR21 0PW' });
      const results = await found({
        by: 'nameAndBirth',
        surname: lastName.toUpperCase(),
        dateOfBirth: '1966-01-02',
        postcode: 'tr210pw',
      });
      expect(results).toHaveLength(10);
      expect(new Set(results.map((r) => r.customerId)).size).toBe(10);
    });

    it('needs a reason and a well-formed query (400 naming the field)', async () => {
      for (const reason of [undefined, '', '  a  ', 'x'.repeat(201)]) {
        const res = await search(agent, { by: 'customerId', customerId: MARGARET }, { reason });
        expect(res.statusCode).toBe(400);
        expect(res.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toHaveProperty('reason');
      }
      for (const query of [
        { by: 'customerId', customerId: 'C1' },
        { by: 'email', email: 'not an address' },
        { by: 'nameAndBirth', surname: 'Thompson', dateOfBirth: '1952-02-30', postcode: 'HR8 2AB' },
        { by: 'nameAndBirth', surname: 'Thompson', dateOfBirth: '1952-04-17' },
        { by: 'phone', phone: '07700900123' },
        { by: 'customerId', customerId: MARGARET, extra: true },
      ]) {
        const res = await search(agent, query);
        expect(res.statusCode, JSON.stringify(query)).toBe(400);
      }
      const future = await search(agent, {
        by: 'nameAndBirth',
        surname: 'Thompson',
        dateOfBirth: '2999-01-01',
        postcode: 'HR8 2AB',
      });
      expect(future.statusCode).toBe(400);
      expect(future.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toEqual({
        'query.dateOfBirth': 'Date of birth must be in the past',
      });
    });

    it('audits each search with the staff member, the reason, the kind and the count, never the searched values', async () => {
      const res = await search(agent, { by: 'email', email: 'margaret.thompson@example.co.uk' });
      expect(res.statusCode).toBe(200);
      const [row] = await auditRows(MARGARET, 'staff.customer.search');
      expect(row).toEqual({
        customer_id: MARGARET,
        on_behalf_of: 'staff:stand-in-agent',
        is_success: true,
        failure_reason: null,
        details: { reason: REASON, kind: 'email', count: 1 },
      });
      // A search that finds no one is audited too, with no customer.
      const none = await search(agent, {
        by: 'nameAndBirth',
        surname: 'Nobody',
        dateOfBirth: '1901-01-01',
        postcode: 'ZE2 9XQ',
      });
      expect(none.json()).toEqual({ results: [] });
      const { rows } = await t.db.query<{ details: Record<string, unknown> }>(
        `SELECT details FROM audit_event WHERE event_id = 'staff.customer.search' AND correlation_id = $1`,
        [none.headers['x-correlationid']],
      );
      expect(rows).toEqual([{ details: { reason: REASON, kind: 'nameAndBirth', count: 0 } }]);
      expect(JSON.stringify(rows)).not.toMatch(/Nobody|1901|ZE2/);
    });

    it('lets a staff member make 30 searches in 10 minutes, then answers 429 with Retry-After; counted in metrics', async () => {
      // A window of this test's own: the searches above are more than 10 minutes ago.
      t.clock.advance(11 * 60_000);
      const searches = async (kind: string) =>
        (await metricsOf(t.app.ctx).staffSearches.get()).values.find((v) => v.labels['kind'] === kind)
          ?.value ?? 0;
      const before = await searches('customerId');
      for (let i = 0; i < t.config.staff.searchLimit; i++) {
        expect((await search(auditor, { by: 'customerId', customerId: MARGARET })).statusCode).toBe(200);
      }
      const refused = await search(auditor, { by: 'customerId', customerId: MARGARET });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another staff member's searches are theirs.
      expect((await search(agent, { by: 'customerId', customerId: MARGARET })).statusCode).toBe(200);
      expect((await searches('customerId')) - before).toBe(t.config.staff.searchLimit + 1);
      const [row] = await auditRows(null, 'staff.customer.search');
      expect(row).toMatchObject({
        on_behalf_of: 'staff:stand-in-auditor',
        is_success: false,
        failure_reason: 'RATE_LIMITED',
        details: { reason: REASON, kind: 'customerId' },
      });
      t.clock.advance(Number(refused.headers['retry-after']) * 1000);
      expect((await search(auditor, { by: 'customerId', customerId: MARGARET })).statusCode).toBe(200);
    });
  });

  describe('open (point 4)', () => {
    it("shows Margaret's state at a glance, and audits the opening with the reason", async () => {
      const view = await opened(MARGARET);
      expect(view).toMatchObject({
        customerId: MARGARET,
        name: 'Mrs Margaret Thompson',
        dateOfBirth: '1952-04-17',
        postcode: 'HR8 2AB',
        email: 'margaret.thompson@example.co.uk',
        registration: { state: 'active', activationSentAt: null },
        preferences: { paperless: expect.any(Boolean) },
      });
      expect(view.factors).toEqual(
        expect.arrayContaining([
          { kind: 'text', destination: '+44 XXXX XXX123', count: 1, addedAt: expect.any(String) },
          { kind: 'call', destination: '+44 XXXX XXX456', count: 1, addedAt: expect.any(String) },
        ]),
      );
      expect(view.policies.map((p) => p.policyNumber)).toEqual(expect.arrayContaining(['102X4567891']));
      expect(view.policies.find((p) => p.policyNumber === '102X4567891')).toMatchObject({
        product: 'Home Insurance',
        status: expect.any(String),
      });
      expect(view.activity.length).toBeLessThanOrEqual(20);
      const [row] = await auditRows(MARGARET, 'staff.customer.opened');
      expect(row).toMatchObject({
        on_behalf_of: 'staff:stand-in-agent',
        is_success: true,
        details: { reason: REASON },
      });
    });

    it('shows a locked sign-in until when, the second factors by kind and never a secret', async () => {
      const c = await customer();
      const { identity } = t.app.ctx.services;
      const enrolment = await identity.enrolTotp(c.customerId);
      await identity.activateTotp(
        c.customerId,
        enrolment.id,
        TOTP.generate({ secret: Secret.fromBase32(enrolment.key), timestamp: t.clock.now().getTime() }),
      );
      const backup = await identity.createBackupCodes(c.customerId);
      await lock(c);
      const res = await act(agent, c.customerId, 'open');
      expect(res.statusCode).toBe(200);
      const view = res.json<StaffCustomerView>();
      expect(view.signIn.locked).toBe(true);
      expect(Date.parse(view.signIn.lockedUntil!)).toBeGreaterThan(t.clock.now().getTime() + 29 * 60_000);
      expect(view.factors).toEqual([
        {
          kind: 'text',
          destination: `+44 XXXX XXX${c.mobileNumber.slice(-3)}`,
          count: 1,
          addedAt: expect.any(String),
        },
        {
          kind: 'call',
          destination: `+44 XXXX XXX${c.mobileNumber.slice(-3)}`,
          count: 1,
          addedAt: expect.any(String),
        },
        { kind: 'authenticator-app', count: 1, addedAt: expect.any(String) },
        { kind: 'backup-codes', count: 1, addedAt: expect.any(String) },
      ]);
      // No key (in clear or sealed), URI, code, hash or credential anywhere in the answer; the factors'
      // numbers masked (the record's mobile is shown whole, for the identity questions).
      const sealed = await t.db.query<{ secret_encrypted: string | null; id: string }>(
        `SELECT a.secret_encrypted, a.id FROM identity_authenticator a JOIN identity_user u ON u.id = a.user_id
         WHERE u.customer_id = $1`,
        [c.customerId],
      );
      const text = res.body;
      for (const secret of [
        enrolment.key,
        enrolment.id,
        'otpauth',
        'secret',
        'publicKey',
        'credential',
        'hash',
        ...backup.codes,
        ...backup.codes.map((code) => code.replace(/\W/g, '')),
        ...sealed.rows.flatMap((r) => [r.id, r.secret_encrypted ?? 'none']),
      ]) {
        expect(text).not.toContain(secret);
      }
      expect(JSON.stringify(view.factors)).not.toContain(c.mobileNumber);
      expect(view.activity).toContainEqual(expect.objectContaining({ kind: 'account-locked' }));
    });

    it('answers 404 for a customer not held, 400 for an id that is not one', async () => {
      expect((await act(agent, 'C0000000', 'open')).statusCode).toBe(404);
      expect((await act(agent, 'C0000000', 'open')).json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await act(agent, 'x1', 'open')).statusCode).toBe(400);
      expect((await agent.post(`/staff/api/customers/${MARGARET}/open`, {})).statusCode).toBe(400);
    });
  });

  describe('actions (point 5)', () => {
    it('unlocks a locked sign-in: audited for the customer, shown in their activity; 409 when not locked', async () => {
      const c = await customer();
      const notLocked = await act(agent, c.customerId, 'unlock');
      expect(notLocked.statusCode).toBe(409);
      expect(notLocked.json()).toMatchObject({ code: 'NOT_LOCKED' });
      expect(await auditRows(c.customerId, 'staff.customer.action.refused')).toMatchObject([
        {
          on_behalf_of: 'staff:stand-in-agent',
          failure_reason: 'NOT_LOCKED',
          details: { reason: REASON, action: 'unlock' },
        },
      ]);

      await lock(c);
      const res = await act(agent, c.customerId, 'unlock');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        done: true,
        customer: { signIn: { locked: false, lockedUntil: null } },
      });
      expect(await auditRows(c.customerId, 'identity.unlock')).toEqual([
        {
          customer_id: c.customerId,
          on_behalf_of: 'staff:stand-in-agent',
          is_success: true,
          failure_reason: null,
          details: { reason: REASON },
        },
      ]);
      const me = await signInAs(c);
      const items = await activityOf(me);
      expect(items.map((i) => i.kind)).toContain('contact-centre-unlocked');
      expect(items.find((i) => i.kind === 'contact-centre-unlocked')).toEqual({
        at: expect.any(String),
        kind: 'contact-centre-unlocked',
      });
      expect(JSON.stringify(items)).not.toMatch(/stand-in|4471/);
    });

    it('sends the activation link again to a customer who has not used it; 409 for an active account', async () => {
      const c = await customer({ account: 'pending' });
      t.clock.advance(60_000);
      const res = await act(agent, c.customerId, 'resend-activation');
      expect(res.statusCode, res.body).toBe(200);
      const view = res.json<{ customer: StaffCustomerView }>().customer;
      expect(view.registration).toEqual({ state: 'pending', activationSentAt: t.clock.now().toISOString() });
      expect((await outbox(t.app, c.email)).filter((m) => m.kind === 'activation')).toHaveLength(2);
      expect(await auditRows(c.customerId, 'identity.activation.issued')).toMatchObject([
        { on_behalf_of: 'staff:stand-in-agent', is_success: true, details: { reason: REASON } },
      ]);
      // The customer reads it in their activity once they can sign in; the view shows it already.
      expect(view.activity[0]).toEqual({ at: expect.any(String), kind: 'contact-centre-activation-sent' });

      const active = await act(agent, MARGARET, 'resend-activation');
      expect(active.statusCode).toBe(409);
      expect(active.json()).toMatchObject({ code: 'NOT_PENDING_ACTIVATION' });
    });

    it('signs the customer out everywhere: their tokens stop; 409 when they are signed in nowhere', async () => {
      const c = await customer();
      const one = await signInAs(c);
      const two = await signInAs(c);
      expect((await opened(c.customerId)).sessions).toHaveLength(2);
      const res = await act(agent, c.customerId, 'end-sessions');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ customer: StaffCustomerView }>().customer.sessions).toEqual([]);
      t.clock.advance(1000);
      for (const who of [one, two]) {
        const refused = await t.app.inject({
          method: 'GET',
          url: `/api/v1/account-activity/${c.customerId}`,
          headers: { authorization: who.authorization },
        });
        expect(refused.statusCode).toBe(401);
      }
      expect(await auditRows(c.customerId, 'session.ended')).toMatchObject([
        { on_behalf_of: 'staff:stand-in-agent', details: { scope: 'all', count: 2, reason: REASON } },
      ]);
      const none = await act(senior, c.customerId, 'end-sessions');
      expect(none.statusCode).toBe(409);
      expect(none.json()).toMatchObject({ code: 'NO_SESSIONS' });

      const items = await activityOf(await signInAs(c));
      expect(items).toContainEqual({ at: expect.any(String), kind: 'contact-centre-signed-out', count: 2 });
    });

    it('removes the authenticator app and backup codes after identity checks, emailing the customer as their own removal does', async () => {
      const c = await customer();
      const { identity } = t.app.ctx.services;
      const enrolment = await identity.enrolTotp(c.customerId);
      await identity.activateTotp(
        c.customerId,
        enrolment.id,
        TOTP.generate({ secret: Secret.fromBase32(enrolment.key), timestamp: t.clock.now().getTime() }),
      );
      await identity.createBackupCodes(c.customerId);
      const unchecked = await act(senior, c.customerId, 'remove-factors', { kinds: ['authenticator-app'] });
      expect(unchecked.statusCode).toBe(400);
      expect(unchecked.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toHaveProperty(
        'identityChecked',
      );
      const nothing = await act(senior, c.customerId, 'remove-factors', {
        kinds: ['passkeys'],
        identityChecked: true,
      });
      expect(nothing.statusCode).toBe(409);
      expect(nothing.json()).toMatchObject({ code: 'NOTHING_TO_REMOVE' });

      const res = await act(senior, c.customerId, 'remove-factors', {
        kinds: ['authenticator-app', 'backup-codes'],
        identityChecked: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ customer: StaffCustomerView }>().customer.factors.map((f) => f.kind)).toEqual([
        'text',
        'call',
      ]);
      const kinds = (await outbox(t.app, c.email)).map((m) => m.kind);
      expect(kinds).toEqual(
        expect.arrayContaining(['security-app-removed', 'security-backup-codes-removed']),
      );
      for (const eventId of ['identity.factor.app-removed', 'identity.factor.backup-codes-removed']) {
        expect(await auditRows(c.customerId, eventId)).toMatchObject([
          { on_behalf_of: 'staff:stand-in-senior-agent', is_success: true, details: { reason: REASON } },
        ]);
      }
      const items = await activityOf(await signInAs(c));
      expect(items).toEqual(
        expect.arrayContaining([
          { at: expect.any(String), kind: 'contact-centre-method-removed', method: 'authenticator-app' },
          { at: expect.any(String), kind: 'contact-centre-method-removed', method: 'backup-codes' },
        ]),
      );
      // Only a senior agent.
      expect(
        (await act(agent, c.customerId, 'remove-factors', { kinds: ['passkeys'], identityChecked: true }))
          .statusCode,
      ).toBe(403);
    });

    it('changes the email address on the customer’s behalf: the sign-in and the record, both addresses told', async () => {
      const c = await customer();
      const newEmail = `moved-${randomUUID().slice(0, 8)}@example.org`;
      const same = await act(senior, c.customerId, 'change-email', {
        email: c.email.toUpperCase(),
        identityChecked: true,
      });
      expect(same.statusCode).toBe(409);
      expect(same.json()).toMatchObject({ code: 'SAME_EMAIL' });
      const taken = await act(senior, c.customerId, 'change-email', {
        email: 'margaret.thompson@example.co.uk',
        identityChecked: true,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'EMAIL_IN_USE' });
      // Nothing said of whose address it is.
      expect(taken.body).not.toContain(MARGARET);

      const res = await act(senior, c.customerId, 'change-email', {
        email: ` ${newEmail} `,
        identityChecked: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ customer: StaffCustomerView }>().customer.email).toBe(newEmail);
      for (const to of [c.email, newEmail]) {
        expect((await outbox(t.app, to)).map((m) => m.kind)).toContain('email-changed');
      }
      expect(await auditRows(c.customerId, 'profile.email.changed')).toMatchObject([
        {
          on_behalf_of: 'staff:stand-in-senior-agent',
          details: { reason: REASON, to: expect.not.stringContaining(newEmail) },
        },
      ]);
      // The customer signs in with the new address and reads what was done.
      const items = await activityOf(await signInAs(c, newEmail));
      expect(items).toContainEqual({
        at: expect.any(String),
        kind: 'contact-centre-email-changed',
        destination: `m•••@example.org`,
      });
      const none = await customer({ account: 'none' });
      const noAccount = await act(senior, none.customerId, 'change-email', {
        email: newEmail.replace('moved', 'other'),
        identityChecked: true,
      });
      expect(noAccount.statusCode).toBe(409);
      expect(noAccount.json()).toMatchObject({ code: 'NO_ONLINE_ACCOUNT' });
    });
  });

  describe("the auditor's trail (point 2)", () => {
    it('reads one customer’s trail newest first, 50 a page with a cursor, and the reading is audited', async () => {
      const c = await customer();
      const base = t.clock.now().getTime();
      for (let i = 0; i < 60; i++) {
        await writeAudit(t.db, {
          source: i % 2 ? 'client' : 'server',
          eventId: 'test.row',
          customerId: c.customerId,
          isSuccess: true,
          occurredAt: new Date(base + 1000 + Math.floor(i / 3)),
          details: { n: i },
        });
      }
      const read = (cursor?: string) =>
        auditor.post(`/staff/api/customers/${c.customerId}/audit-trail`, {
          reason: REASON,
          ...(cursor ? { cursor } : {}),
        });
      const first = await read();
      expect(first.statusCode, first.body).toBe(200);
      const page1 = first.json<{
        name: string;
        entries: Array<{ details: { n?: number } }>;
        nextCursor: string | null;
      }>();
      expect(page1.name).toBe(`Ms Testa ${c.lastName}`);
      expect(page1.entries).toHaveLength(50);
      expect(page1.entries.slice(0, 3).map((e) => e.details.n)).toEqual([59, 58, 57]);
      const second = await read(page1.nextCursor!);
      const page2 = second.json<typeof page1>();
      const ns = [...page1.entries, ...page2.entries].map((e) => e.details.n).filter((n) => n !== undefined);
      expect(ns).toEqual([...Array(60).keys()].reverse());
      // The reading itself, audited with the auditor and the reason.
      expect(await auditRows(c.customerId, 'staff.customer.trail.read')).toMatchObject([
        { on_behalf_of: 'staff:stand-in-auditor', details: { reason: REASON, page: 'older' } },
        { on_behalf_of: 'staff:stand-in-auditor', details: { reason: REASON, page: 'newest', entries: 50 } },
      ]);
      // Who acted for the customer is said: here an agent opened the record.
      t.clock.advance(5000);
      await opened(c.customerId);
      const latest = (await read()).json<{
        entries: Array<{ eventId: string; onBehalfOf: string | null }>;
      }>();
      expect(latest.entries[0]).toMatchObject({
        eventId: 'staff.customer.opened',
        onBehalfOf: 'staff:stand-in-agent',
      });

      for (const cursor of [
        'not-a-cursor',
        Buffer.from('2026-01-01T00:00:00.000000Z|0').toString('base64url'),
        '%%',
      ]) {
        const bad = await read(cursor);
        expect(bad.statusCode, cursor).toBe(400);
        expect(bad.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toHaveProperty('cursor');
      }
      expect(
        (await auditor.post('/staff/api/customers/C0000000/audit-trail', { reason: REASON })).statusCode,
      ).toBe(404);
      expect((await auditor.post(`/staff/api/customers/${c.customerId}/audit-trail`, {})).statusCode).toBe(
        400,
      );
    });
  });
});
