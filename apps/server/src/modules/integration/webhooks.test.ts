import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  clientToken,
  eventsOnlyClient,
  integrationEnv,
  testClient,
} from '../../../test/integration-client';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { webhookTiming } from './webhooks';
import { drain, startReceiver, webhookEnv, type Receiver } from '../../../test/webhooks';

describe('customers’ changes as signed webhooks', () => {
  let receiver: Receiver;
  let t: TestContext;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    receiver.attempts.length = 0;
    receiver.answer(204);
    t = await createTestApp({ ...integrationEnv(), ...webhookEnv(receiver) });
  });
  afterEach(() => t.close());

  const patchPreferences = (who: SignedIn, body: object) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/Preferences/${who.customerId}`,
      headers: { authorization: who.authorization },
      payload: body,
    });

  it('sends a saved marketing choice once, signed, as the consent record', async () => {
    const margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    const before = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/Preferences/${margaret.customerId}/marketing`,
        headers: { authorization: margaret.authorization },
      })
    ).json<Record<string, boolean | null>>();
    const res = await patchPreferences(margaret, { marketingPreferences: { email: !before['email'] } });
    expect(res.statusCode).toBe(200);
    await drain(t);

    expect(receiver.attempts).toHaveLength(1);
    const [hook] = receiver.attempts;
    expect(hook!.verified).toBe(true);
    expect(hook!.type).toBe('customer.marketing.updated');
    expect(hook!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(hook!.timestamp).toBe(t.clock.now().toISOString());
    expect(hook!.data).toEqual({
      customerId: margaret.customerId,
      marketing: { ...before, email: !before['email'] },
      changed: ['email'],
      journey: 'preferences',
      channel: 'portal',
      at: t.clock.now().toISOString(),
    });

    // Delivered means done: later passes send nothing again.
    t.clock.advance(24 * 60 * 60_000);
    await drain(t);
    expect(receiver.attempts).toHaveLength(1);
  });

  it('marks the first-sign-in step’s choice as the registration journey', async () => {
    const david = await signIn(t, 'david.okafor@example.co.uk');
    const choice = { email: false, phone: false, post: true, online: false };
    expect((await patchPreferences(david, { marketingPreferences: choice })).statusCode).toBe(200);
    await drain(t);
    expect(receiver.delivered().map((h) => h.data)).toEqual([
      expect.objectContaining({
        customerId: david.customerId,
        marketing: choice,
        changed: ['email', 'phone', 'post', 'online'],
        journey: 'registration',
      }),
    ]);
  });

  it('sends a change to paperless with the choice before it', async () => {
    const james = await signIn(t, 'james.carter@example.co.uk');
    const { paperless } = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/Preferences/${james.customerId}/correspondence`,
        headers: { authorization: james.authorization },
      })
    ).json<{ paperless: boolean }>();
    const res = await patchPreferences(james, { correspondencePreferences: { paperless: !paperless } });
    expect(res.statusCode).toBe(200);
    await drain(t);
    expect(receiver.delivered()).toEqual([
      expect.objectContaining({
        type: 'customer.correspondence.updated',
        verified: true,
        data: {
          customerId: james.customerId,
          paperless: !paperless,
          previous: paperless,
          at: t.clock.now().toISOString(),
        },
      }),
    ]);
  });

  it('sends a contact-us message with its text', async () => {
    const helen = await signIn(t, 'helen.dawson@example.co.uk');
    const message = {
      productType: 'PHL',
      messageType: 'ChangeAddress',
      messageText: 'We move on 1 March to Rose Cottage.',
    };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/messaging/contact/${helen.customerId}`,
      headers: { authorization: helen.authorization },
      payload: message,
    });
    expect(res.statusCode).toBe(200);
    await drain(t);
    expect(receiver.delivered()).toEqual([
      expect.objectContaining({
        type: 'customer.contact.sent',
        verified: true,
        data: {
          customerId: helen.customerId,
          messageId: expect.stringMatching(/^\d+$/),
          ...message,
          at: t.clock.now().toISOString(),
        },
      }),
    ]);
  });

  it('retries a failing receiver after the back-off, keeping each customer’s changes in order', async () => {
    const margaret = await signIn(t, 'margaret.thompson@example.co.uk');
    const anne = await signIn(t, 'anne.porter@example.co.uk');
    receiver.answer(500);
    await patchPreferences(margaret, { correspondencePreferences: { paperless: true } });
    await drain(t);
    expect(receiver.attempts.map((a) => a.answered)).toEqual([500]);

    // Margaret's second change waits behind her first; Anne's goes on its own.
    await patchPreferences(margaret, { correspondencePreferences: { paperless: false } });
    receiver.answer(204);
    await patchPreferences(anne, { correspondencePreferences: { paperless: true } });
    await drain(t);
    expect(receiver.delivered().map((h) => h.data['customerId'])).toEqual([anne.customerId]);

    // Not before the back-off.
    t.clock.advance(webhookTiming.baseBackoffMs - 1000);
    await drain(t);
    expect(receiver.attempts).toHaveLength(2);

    t.clock.advance(1000);
    await drain(t);
    const margarets = receiver.delivered().filter((h) => h.data['customerId'] === margaret.customerId);
    expect(margarets.map((h) => h.data['paperless'])).toEqual([true, false]);
    expect(margarets.every((h) => h.verified)).toBe(true);
    // The retry is the same event: the same webhook-id, so a receiver can drop repeats.
    expect(receiver.attempts[0]!.id).toBe(margarets[0]!.id);
  });

  it('gives up after every retry, lists the dead letter and sends it again when retried', async () => {
    const james = await signIn(t, 'james.carter@example.co.uk');
    receiver.answer(503);
    await patchPreferences(james, { correspondencePreferences: { paperless: true } });
    for (let i = 0; i < webhookTiming.maxAttempts; i++) {
      await drain(t);
      t.clock.advance(webhookTiming.maxBackoffMs);
    }
    expect(receiver.attempts).toHaveLength(webhookTiming.maxAttempts);
    await drain(t);
    expect(receiver.attempts).toHaveLength(webhookTiming.maxAttempts);

    // Tokens are taken now: the clock has moved about a day.
    const reader = bearer(await clientToken(t.app, eventsOnlyClient, ['events.read']));
    const listed = await t.app.inject({
      method: 'GET',
      url: '/integration/v1/webhooks/dead-letters',
      headers: reader,
    });
    expect(listed.statusCode).toBe(200);
    const { deadLetters } = listed.json<{ deadLetters: Array<Record<string, unknown>> }>();
    expect(deadLetters).toEqual([
      {
        deliveryId: expect.any(String),
        endpointId: 'crm',
        eventId: receiver.attempts[0]!.id,
        type: 'customer.correspondence.updated',
        attempts: webhookTiming.maxAttempts,
        lastError: 'HTTP 503',
        lastStatus: 503,
      },
    ]);

    const writer = bearer(await clientToken(t.app, testClient, ['customers.write']));
    const deliveryId = String(deadLetters[0]!['deliveryId']);
    const retryUrl = `/integration/v1/webhooks/dead-letters/${deliveryId}/retry`;
    expect((await t.app.inject({ method: 'POST', url: retryUrl, headers: writer })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/integration/v1/webhooks/dead-letters', headers: writer }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: retryUrl })).statusCode).toBe(401);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/integration/v1/webhooks/dead-letters/999999/retry',
      headers: reader,
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/integration/v1/webhooks/dead-letters/abc/retry',
          headers: reader,
        })
      ).json(),
    ).toMatchObject({ code: expect.any(String), fieldErrors: { deliveryId: expect.any(String) } });

    receiver.answer(200);
    const retried = await t.app.inject({ method: 'POST', url: retryUrl, headers: reader });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ deliveryId, status: 'pending' });
    await drain(t);
    expect(receiver.delivered()).toEqual([
      expect.objectContaining({ id: receiver.attempts[0]!.id, verified: true }),
    ]);
    const after = await t.app.inject({
      method: 'GET',
      url: '/integration/v1/webhooks/dead-letters',
      headers: reader,
    });
    expect(after.json()).toEqual({ deadLetters: [] });
    // Only a dead delivery can be retried.
    expect((await t.app.inject({ method: 'POST', url: retryUrl, headers: reader })).statusCode).toBe(404);
  });
});

describe('webhook receivers that take some event types', () => {
  let receiver: Receiver;
  let t: TestContext;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({
      ...integrationEnv(),
      ...webhookEnv(receiver, ['customer.correspondence.updated']),
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('gets only those types', async () => {
    const anne = await signIn(t, 'anne.porter@example.co.uk');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/Preferences/${anne.customerId}`,
      headers: { authorization: anne.authorization },
      payload: { marketingPreferences: { post: true }, correspondencePreferences: { paperless: true } },
    });
    expect(res.statusCode).toBe(200);
    await drain(t);
    expect(receiver.delivered().map((h) => h.type)).toEqual(['customer.correspondence.updated']);
  });
});
