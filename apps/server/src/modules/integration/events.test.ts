import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordCustomerEvent } from '../../platform/customer-events';
import {
  bearer,
  clientToken,
  eventsOnlyClient,
  integrationEnv,
  testClient,
} from '../../../test/integration-client';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { latestCode, latestLinkToken, post, tx } from '../../../test/identity-support';
import { drain, startReceiver, webhookEnv } from '../../../test/webhooks';

interface Feed {
  events: Array<{
    id: string;
    position: number;
    type: string;
    customerId: string;
    occurredAt: string;
    data: Record<string, unknown>;
  }>;
  next: number;
}

describe('the events feed', () => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestApp(integrationEnv());
  });
  afterEach(() => t.close());

  const readFeed = async (query: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/integration/v1/events${query}`,
      headers: bearer(token ?? (await clientToken(t.app, eventsOnlyClient, ['events.read']))),
    });
  const setPaperless = (who: SignedIn, paperless: boolean) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/Preferences/${who.customerId}`,
      headers: { authorization: who.authorization },
      payload: { correspondencePreferences: { paperless } },
    });

  it('pages the changes in order by cursor, for a client that may only read events', async () => {
    const margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    const james = await signIn(t, 'james.carter@example.co.uk');
    await setPaperless(margaret, true);
    await setPaperless(james, false);
    await setPaperless(margaret, false);

    const first = await readFeed('?limit=2');
    expect(first.statusCode).toBe(200);
    const page1 = first.json<Feed>();
    expect(page1.events.map((e) => [e.customerId, e.data['paperless']])).toEqual([
      [margaret.customerId, true],
      [james.customerId, false],
    ]);
    expect(page1.events[0]).toMatchObject({
      type: 'customer.correspondence.updated',
      occurredAt: t.clock.now().toISOString(),
    });
    expect(page1.next).toBe(page1.events[1]!.position);

    const page2 = (await readFeed(`?after=${page1.next}&limit=2`)).json<Feed>();
    expect(page2.events.map((e) => [e.customerId, e.data['paperless']])).toEqual([
      [margaret.customerId, false],
    ]);
    expect(page2.events[0]!.position).toBeGreaterThan(page1.next);

    // Nothing new: the same cursor back.
    const page3 = (await readFeed(`?after=${page2.next}`)).json<Feed>();
    expect(page3).toEqual({ events: [], next: page2.next });

    // Every id once, and the default page takes them all.
    const all = (await readFeed('')).json<Feed>();
    expect(new Set(all.events.map((e) => e.id)).size).toBe(3);
  });

  it('refuses a client without events.read (403), no token (401) and a bad cursor or limit (400)', async () => {
    const writer = await clientToken(t.app, testClient, ['customers.write']);
    const forbidden = await readFeed('', writer);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toContain('events.read');
    expect((await t.app.inject({ method: 'GET', url: '/integration/v1/events' })).statusCode).toBe(401);
    const customer = await signIn(t, 'margaret.thompson@example.co.uk');
    expect((await readFeed('', customer.accessToken)).statusCode).toBe(401);

    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?limit=ten', 'limit'],
      ['?after=-1', 'after'],
      ['?after=1.5', 'after'],
      ['?since=3', 'since'],
    ] as const) {
      const res = await readFeed(query);
      expect(res.statusCode, query).toBe(400);
      // An unknown parameter is named in the message of `query`, the others by their own field.
      expect(JSON.stringify(res.json().fieldErrors), query).toContain(field);
    }
  });

  it('emits nothing for a change that rolls back', async () => {
    const margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    await expect(
      t.app.ctx.db.transaction(async (q) => {
        await recordCustomerEvent(t.app.ctx, q, {
          type: 'customer.correspondence.updated',
          customerId: margaret.customerId,
          data: { paperless: true, previous: false },
        });
        throw new Error('the change failed after its event was recorded');
      }),
    ).rejects.toThrow('the change failed');
    expect((await readFeed('')).json()).toEqual({ events: [], next: 0 });

    // A refused change (400) records nothing either.
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/Preferences/${margaret.customerId}`,
      headers: { authorization: margaret.authorization },
      payload: { marketingPreferences: { email: 'yes' } },
    });
    expect(refused.statusCode).toBe(400);
    expect((await readFeed('')).json()).toEqual({ events: [], next: 0 });
  });
});

describe('registration completed', () => {
  it('is sent with the sign-in address, once', async () => {
    const receiver = await startReceiver();
    const t = await createTestApp({ ...integrationEnv(), ...webhookEnv(receiver) });
    try {
      const eleanor = {
        emailAddress: 'eleanor.hughes@example.co.uk',
        dateOfBirth: '1978-11-25',
        postCode: 'EX39 2QQ',
      };
      const registered = await post(t.app, '/Registration', eleanor, { 'x-forwarded-for': '192.0.2.10' });
      expect(registered.json()).toEqual({ status: 'OK' });
      const token = await latestLinkToken(t.app, eleanor.emailAddress, 'activation');
      const activation = tx(await post(t.app, '/api/v1/authn', { token }));
      if (activation.status !== 'PASSWORD_RESET') throw new Error(activation.status);
      const { stateToken } = activation;
      const userId = activation._embedded.user.id;
      const mfa = tx(
        await post(t.app, '/api/v1/authn/credentials/reset_password', {
          stateToken,
          newPassword: 'Quayside-Gull-Morning-3',
        }),
      );
      if (mfa.status !== 'MFA_REQUIRED') throw new Error(mfa.status);
      const sms = mfa._embedded.factors[0]!;
      await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, { stateToken });
      await post(t.app, `/api/v1/authn/factors/${sms.id}/verify`, {
        stateToken,
        passCode: await latestCode(t.app, '07700900456'),
      });
      await drain(t);
      expect(receiver.attempts).toEqual([]);

      for (let i = 0; i < 2; i++) {
        const done = await post(t.app, '/api/v1/registration/complete', { oktaUserId: userId, stateToken });
        expect(done.json()).toEqual({ status: 'COMPLETED' });
      }
      await drain(t);
      expect(receiver.delivered()).toEqual([
        expect.objectContaining({
          type: 'customer.registration.completed',
          verified: true,
          data: { customerId: 'C1000003', email: eleanor.emailAddress, at: t.clock.now().toISOString() },
        }),
      ]);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
