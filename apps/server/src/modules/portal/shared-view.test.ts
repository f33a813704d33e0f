import { randomUUID } from 'node:crypto';
import type { ActivityItem, ActivityPage } from '@portal/contracts/account-activity';
import type { ShareCode, SharedViewSession } from '@portal/contracts/screen-share';
import type { StaffSharedViewLink } from '@portal/contracts/staff-shared-view';
import type { SignInSession } from '@portal/contracts/sign-in-sessions';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signInAccount, type SignedIn } from '../../../test/sign-in';
import { createRunCustomer, eraseRunCustomers, type RunCustomer } from '../../../test/staff-customers';
import { staffConsole, staffOf, type StaffConsole } from '../../../test/staff-sign-in';

/*
 * Issue 41 point 6: the customer makes a one-time code, the agent gives it with a reason and opens the
 * customer's portal read only: reads answer, every write but the view's own is refused (403), pages seen
 * are listed in the customer's activity, and the customer ends the view from "Where you're signed in".
 * On the embedded database, and on PostgreSQL when DATABASE_URL is set.
 */

const REASON = 'Call ref 5521-B';

describe.each(databases())('seeing what the customer sees on $name', ({ open }) => {
  let t: TestContext;
  let agent: StaffConsole;
  const made: RunCustomer[] = [];

  beforeAll(async () => {
    t = await createTestApp({ REDIS_KEY_PREFIX: `test-${randomUUID()}:` }, { db: await open() });
  });
  beforeEach(async () => {
    agent = await staffConsole(t.app, staffOf.agent);
  });
  afterAll(async () => {
    await eraseRunCustomers(t, made);
    await t.close();
    await t.db.close();
  });

  /** A customer of the test's own, signed in. */
  const signedInCustomer = async () => {
    const c = await createRunCustomer(t);
    made.push(c);
    return { c, me: await signInAccount(t, c) };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const makeCode = async (me: SignedIn) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/screen-share/${me.customerId}/code`,
      headers: { authorization: me.authorization },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ShareCode>();
  };
  const askToView = (customerId: string, body: object, who = agent) =>
    who.post(`/staff/api/customers/${customerId}/shared-view`, { reason: REASON, ...body });
  const openLink = (url: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/screen-share/open',
      payload: { ticket: new URL(url).hash.replace('#ticket=', '') },
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0 Safari/537.36' },
    });
  /** A view opened with the customer's code: its token. */
  const view = async (me: SignedIn) => {
    const { code } = await makeCode(me);
    const asked = await askToView(me.customerId, { code });
    expect(asked.statusCode, asked.body).toBe(201);
    const opened = await openLink(asked.json<StaffSharedViewLink>().url);
    expect(opened.statusCode, opened.body).toBe(200);
    return opened.json<SharedViewSession>();
  };
  const activityOf = async (me: SignedIn): Promise<ActivityItem[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/account-activity/${me.customerId}?pageSize=20`,
      headers: { authorization: me.authorization },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ActivityPage>().items;
  };
  const sessionsOf = async (me: SignedIn) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sign-in-sessions/${me.customerId}`,
      headers: { authorization: me.authorization },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ sessions: SignInSession[] }>().sessions;
  };

  it('a code opens the portal read only for 30 minutes: reads answer, writes are refused, the customer sees it all and ends it', async () => {
    const { c, me } = await signedInCustomer();
    const { code, expiresAt } = await makeCode(me);
    expect(code).toMatch(/^\d{6}$/);
    expect(Date.parse(expiresAt) - t.clock.now().getTime()).toBe(10 * 60_000);

    const asked = await askToView(c.customerId, { code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(asked.statusCode, asked.body).toBe(201);
    const link = asked.json<StaffSharedViewLink>();
    expect(link.url).toMatch(/\/account\/shared-view#ticket=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.viewEndsAt) - t.clock.now().getTime()).toBe(30 * 60_000);
    // One use: the same code again is refused.
    const again = await askToView(c.customerId, { code });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ code: 'SHARE_CODE_WRONG' });

    const opened = await openLink(link.url);
    expect(opened.statusCode, opened.body).toBe(200);
    const session = opened.json<SharedViewSession>();
    expect(session).toMatchObject({ customerName: 'Testa ' + c.lastName, staffName: 'Alex Morgan' });
    const claims = decodeJwt(session.accessToken);
    expect(claims).toMatchObject({ customerId: c.customerId, onBehalfOf: expect.stringMatching(/^staff:/) });
    expect(claims.exp! * 1000).toBe(Date.parse(link.viewEndsAt));
    // The link works once.
    expect((await openLink(link.url)).statusCode).toBe(401);

    const token = bearer(session.accessToken);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v1/Preferences/${c.customerId}/marketing`,
      headers: token,
    });
    expect(read.statusCode, read.body).toBe(200);
    const before = read.body;
    const write = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/Preferences/${c.customerId}`,
      headers: token,
      payload: { marketingPreferences: { online: !read.json<{ online: boolean }>().online } },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'READ_ONLY_VIEW', correlationId: expect.any(String) });
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/v1/Preferences/${c.customerId}/marketing`,
      headers: token,
    });
    expect(after.body).toBe(before);
    // Nor can the view make a code, end other sign-ins or change the password.
    for (const [method, url] of [
      ['POST', `/api/v1/screen-share/${c.customerId}/code`],
      ['POST', `/api/v1/sign-in-sessions/${c.customerId}/sign-out-others`],
      ['POST', `/api/v1/messaging/contact/${c.customerId}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: token, payload: {} });
      expect(res.statusCode, url).toBe(403);
    }
    // Another customer's data is as unknown to it as to the customer.
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/marketing',
      headers: token,
    });
    expect(other.statusCode).toBe(404);

    const page = await t.app.inject({
      method: 'POST',
      url: `/api/v1/screen-share/${c.customerId}/pages`,
      headers: token,
      payload: { path: '/account/dashboard', title: 'Your account' },
    });
    expect(page.statusCode, page.body).toBe(204);
    // The customer's own token records no page views.
    const ownPage = await t.app.inject({
      method: 'POST',
      url: `/api/v1/screen-share/${c.customerId}/pages`,
      headers: { authorization: me.authorization },
      payload: { path: '/account/dashboard', title: 'Your account' },
    });
    expect(ownPage.statusCode).toBe(403);

    // The customer sees who is looking, and ends it.
    const sessions = await sessionsOf(me);
    const shared = sessions.find((s) => s.viewer !== undefined);
    expect(shared).toMatchObject({ viewer: 'Alex Morgan', thisDevice: false, browser: 'Chrome' });
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/sign-in-sessions/${c.customerId}/${shared!.id}`,
      headers: { authorization: me.authorization },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    t.clock.advance(1000);
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/v1/Preferences/${c.customerId}/marketing`,
      headers: token,
    });
    expect(refused.statusCode).toBe(401);

    const kinds = (await activityOf(me)).map((i) => i.kind);
    expect(kinds.slice(0, 4)).toEqual([
      'shared-view-ended',
      'contact-centre-viewed-page',
      'contact-centre-view-started',
      'share-code-created',
    ]);
    expect((await activityOf(me)).find((i) => i.kind === 'contact-centre-viewed-page')).toMatchObject({
      page: 'Your account',
    });
  });

  it('a code lasts ten minutes, five wrong tries void it, and a staff member may give only so many wrong codes', async () => {
    const { c, me } = await signedInCustomer();
    const { code } = await makeCode(me);
    t.clock.advance(10 * 60_000 + 1000);
    agent = await staffConsole(t.app, staffOf.agent);
    expect((await askToView(c.customerId, { code })).statusCode).toBe(422);

    const fresh = (await makeCode(await signInAccount(t, c))).code;
    const wrong = fresh === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await askToView(c.customerId, { code: wrong });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'SHARE_CODE_WRONG',
        fieldErrors: { code: expect.any(String) },
      });
    }
    // Voided: the right code no longer works.
    expect((await askToView(c.customerId, { code: fresh })).statusCode).toBe(422);
    // No code at all, while codes are required.
    const none = await askToView(c.customerId, {});
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ code: 'SHARE_CODE_REQUIRED' });
    // The same staff member's wrong codes are limited (10 in ten minutes, counted on every instance).
    let limited = false;
    for (let i = 0; i < 6 && !limited; i++) {
      const res = await askToView(c.customerId, { code: wrong });
      limited = res.statusCode === 429;
      if (limited) expect(res.headers['retry-after']).toMatch(/^\d+$/);
    }
    expect(limited).toBe(true);
    // Nothing of a code is in the audit trail.
    const { rows } = await t.db.query<{ details: unknown }>(
      `SELECT details FROM audit_event WHERE customer_id = $1 AND event_id LIKE 'screen_share.%'`,
      [c.customerId],
    );
    expect(JSON.stringify(rows)).not.toContain(fresh);
  });

  it('the view ends after 30 minutes, or when the agent closes it, and the customer is told', async () => {
    const { c, me: firstSignIn } = await signedInCustomer();
    const first = await view(firstSignIn);
    t.clock.advance(30 * 60_000 + 1000);
    const expired = await t.app.inject({
      method: 'GET',
      url: `/api/v1/Preferences/${c.customerId}/marketing`,
      headers: bearer(first.accessToken),
    });
    expect(expired.statusCode).toBe(401);

    agent = await staffConsole(t.app, staffOf.agent);
    const me = await signInAccount(t, c);
    const second = await view(me);
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/screen-share/${c.customerId}/end`,
      headers: bearer(second.accessToken),
      payload: {},
    });
    expect(closed.statusCode, closed.body).toBe(204);
    t.clock.advance(1000);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/v1/Preferences/${c.customerId}/marketing`,
      headers: bearer(second.accessToken),
    });
    expect(after.statusCode).toBe(401);
    expect((await activityOf(me))[0]).toMatchObject({ kind: 'contact-centre-view-ended' });
    expect((await sessionsOf(me)).some((s) => s.viewer)).toBe(false);
  });

  it('only agents and senior agents ask; a customer without an online account has nothing to view', async () => {
    const auditor = await staffConsole(t.app, staffOf.auditor);
    const { c } = await signedInCustomer();
    expect((await askToView(c.customerId, { code: '123456' }, auditor)).statusCode).toBe(403);
    const none = await createRunCustomer(t, { account: 'none' });
    made.push(none);
    const res = await askToView(none.customerId, { code: '123456' });
    expect(res.statusCode).toBe(409);
    expect((await askToView('C9999999', { code: '123456' })).statusCode).toBe(404);
    expect((await askToView(c.customerId, { code: '12345' })).statusCode).toBe(400);
  });
});

describe('where the insurer turns codes off', () => {
  it('an agent opens the view with a reason and no code', async () => {
    const t = await createTestApp({
      STAFF_SHARED_VIEW_CODE: 'off',
      REDIS_KEY_PREFIX: `test-${randomUUID()}:`,
    });
    try {
      const agent = await staffConsole(t.app, staffOf.agent);
      const c = await createRunCustomer(t);
      const me = await t.app.inject({
        method: 'GET',
        url: '/staff/api/session',
        headers: { cookie: agent.jar.header() },
      });
      expect(me.json()).toMatchObject({ sharedViewCode: 'off' });
      const asked = await agent.post(`/staff/api/customers/${c.customerId}/shared-view`, { reason: REASON });
      expect(asked.statusCode, asked.body).toBe(201);
    } finally {
      await t.close();
    }
  });
});
