import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';

describe.each(databases())('notifications and profile on $name', ({ open }) => {
  let t: TestContext;
  let margaret: SignedIn;
  let james: SignedIn;
  let david: SignedIn;
  let helen: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    james = await signIn(t, 'james.carter@example.co.uk');
    david = await signIn(t, 'david.okafor@example.co.uk');
    helen = await signIn(t, 'helen.dawson@example.co.uk');
  });
  afterAll(async () => {
    // Back to NEW for other runs on a shared database.
    await t.db.query(`UPDATE customer_notification SET status = 'NEW'`);
    await t.close();
    await t.db.close();
  });

  const call = (who: SignedIn | null, method: 'GET' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: who ? { authorization: who.authorization } : {} });

  it("lists the customer's welcome and splash notifications with their windows", async () => {
    const welcome = (await call(james, 'GET', `/api/v1/customers/${james.customerId}/notifications`)).json();
    expect(welcome).toEqual([
      {
        id: 'C1000006-welcome',
        notificationId: 'welcome',
        type: 'WELCOME',
        status: 'NEW',
        startDate: null,
        endDate: null,
      },
    ]);
    const [splash] = (await call(helen, 'GET', `/api/v1/customers/${helen.customerId}/notifications`)).json();
    expect(splash).toMatchObject({ type: 'SPLASH', status: 'NEW' });
    expect(Date.parse(splash.startDate)).toBeLessThan(t.clock.now().getTime());
    expect(Date.parse(splash.endDate)).toBeGreaterThan(t.clock.now().getTime());
    const [past] = (await call(david, 'GET', `/api/v1/customers/${david.customerId}/notifications`)).json();
    expect(Date.parse(past.endDate)).toBeLessThan(t.clock.now().getTime());
  });

  it('moves a notification to SHOWN then CLOSED, audited, and never back to SHOWN', async () => {
    const since = (await t.db.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
    const url = `/api/v1/customers/${james.customerId}/notifications/C1000006-welcome/welcome`;
    const shown = await call(james, 'PATCH', url, { status: 'SHOWN' });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id: 'C1000006-welcome', status: 'SHOWN' });
    expect((await call(james, 'PATCH', url, { status: 'CLOSED' })).json().status).toBe('CLOSED');
    const again = await call(james, 'PATCH', url, { status: 'SHOWN' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'NOTIFICATION_CLOSED' });
    const list = (await call(james, 'GET', `/api/v1/customers/${james.customerId}/notifications`)).json();
    expect(list[0].status).toBe('CLOSED');
    const audits = await t.db.query<{ event_id: string }>(
      `SELECT event_id FROM audit_event WHERE customer_id = $1 AND event_id LIKE 'notification.%' AND occurred_at >= $2 ORDER BY id`,
      [james.customerId, since],
    );
    expect(audits.rows.map((r) => r.event_id)).toEqual(['notification.shown', 'notification.closed']);
  });

  it("refuses another customer's notification (404), bad statuses and ids (400)", async () => {
    const others = `/api/v1/customers/${helen.customerId}/notifications/C1000006-welcome/welcome`;
    expect((await call(helen, 'PATCH', others, { status: 'SHOWN' })).statusCode).toBe(404);
    const mismatched = `/api/v1/customers/${james.customerId}/notifications/C1000006-welcome/splash-winter`;
    expect((await call(james, 'PATCH', mismatched, { status: 'SHOWN' })).statusCode).toBe(404);
    const own = `/api/v1/customers/${helen.customerId}/notifications/C1000007-splash-winter/splash-winter`;
    for (const body of [{ status: 'NEW' }, { status: 'shown' }, {}, { status: 'SHOWN', extra: 1 }]) {
      expect((await call(helen, 'PATCH', own, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await call(helen, 'PATCH', `/api/v1/customers/${helen.customerId}/notifications/a%20b/c`, {
          status: 'SHOWN',
        })
      ).statusCode,
    ).toBe(400);
    expect((await call(null, 'GET', `/api/v1/customers/${helen.customerId}/notifications`)).statusCode).toBe(
      401,
    );
  });

  it("answers the customer's profile, and 404 for another customer's", async () => {
    const res = await call(margaret, 'GET', `/api/v1/profile/${margaret.customerId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Margaret',
      lastName: 'Thompson',
      dateOfBirthFormatted: '17/04/1952',
      addressLineOne: 'Bluebell Cottage',
      postCode: 'HR8 2AB',
      emailAddress: 'margaret.thompson@example.co.uk',
      mobileNumber: '07700900123',
      landlineNumber: '01632960456',
    });
    expect((await call(david, 'GET', `/api/v1/profile/${margaret.customerId}`)).statusCode).toBe(404);
    expect((await call(david, 'GET', `/api/v1/profile/${david.customerId}`)).json().mobileNumber).toBeNull();
  });
});
